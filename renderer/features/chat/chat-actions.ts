import { familiar } from '../../ipc/familiar';
import { createChatActions } from './chat-store';

/** The chat actions bound to the page's one API. */
export const chatActions = createChatActions(familiar);
