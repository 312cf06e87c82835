import { familiar } from '../../ipc/familiar';
import { useDraftsStore } from '../chat/drafts-store';
import { createConversationsActions, useConversationsStore } from './conversations-store';

/** The conversation-list actions bound to the page's one API. */
export const conversationsActions = createConversationsActions(
  familiar,
  useConversationsStore,
  globalThis.localStorage,
  (id) => (useDraftsStore.getState().drafts[id] ?? '') !== '',
);
