import { familiar } from '../../ipc/familiar';
import { createConversationsActions } from './conversations-store';

/** The conversation-list actions bound to the page's one API. */
export const conversationsActions = createConversationsActions(familiar);
