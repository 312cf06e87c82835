import { create } from 'zustand';
import type { FamiliarError } from '../../../shared/errors';
import type { EventPayload, FamiliarApi } from '../../../shared/ipc/contract';
import type { ConversationSummary } from '../../../shared/ipc/conversations';

export interface ConversationsState {
  /** Newest activity first. */
  readonly conversations: readonly ConversationSummary[];
  readonly status: 'idle' | 'loading' | 'ready' | 'failed';
  /** The last failure of a list call, shown above the list. */
  readonly error: FamiliarError | null;
  readonly activeId: string | null;
  readonly query: string;
  /** Titles matching `query` (null when not searching). */
  readonly searchResults: readonly ConversationSummary[] | null;
  /** The conversation just moved to the trash, offered for undo. */
  readonly recentlyDeleted: ConversationSummary | null;
}

export const initialConversationsState = (): ConversationsState => ({
  conversations: [],
  status: 'idle',
  error: null,
  activeId: null,
  query: '',
  searchResults: null,
  recentlyDeleted: null,
});

export const useConversationsStore = create<ConversationsState>(initialConversationsState);

/** The open conversation is remembered so a reload comes back to it. */
export const ACTIVE_CONVERSATION_KEY = 'familiar.activeConversation';

const byNewest = (a: ConversationSummary, b: ConversationSummary) => b.updatedAt.localeCompare(a.updatedAt);

function upsert(list: readonly ConversationSummary[], summary: ConversationSummary): ConversationSummary[] {
  return [...list.filter((item) => item.id !== summary.id), summary].sort(byNewest);
}

export interface ConversationsActions {
  /** Loads the list and reopens the remembered conversation when it still exists. */
  readonly load: () => Promise<void>;
  /**
   * Opens an empty conversation: the one on screen if it is still untouched (so clicking "New
   * conversation" twice does not leave empty ones behind), otherwise a new one.
   */
  readonly create: () => Promise<ConversationSummary | null>;
  /** Lists and opens a conversation created elsewhere (e.g. the incognito action in the header). */
  readonly adopt: (summary: ConversationSummary) => ConversationSummary;
  readonly select: (id: string | null) => void;
  readonly rename: (id: string, title: string) => Promise<boolean>;
  readonly remove: (id: string) => Promise<void>;
  /** Brings back `recentlyDeleted` and opens it. */
  readonly undoRemove: () => Promise<void>;
  readonly dismissUndo: () => void;
  readonly search: (query: string) => Promise<void>;
  readonly applyChange: (change: EventPayload<'conversations.changed'>) => void;
}

/**
 * Nothing was ever written to it: no message, no rename (either would move updatedAt), and no
 * draft waiting in the composer. Incognito ones are a deliberate choice and never reused.
 */
export function isUntouched(summary: ConversationSummary, hasDraft: (id: string) => boolean): boolean {
  return (
    summary.messageCount === 0 &&
    summary.incognito !== true &&
    summary.updatedAt === summary.createdAt &&
    !hasDraft(summary.id)
  );
}

export function createConversationsActions(
  api: FamiliarApi,
  store = useConversationsStore,
  storage: Storage | undefined = globalThis.localStorage,
  hasDraft: (id: string) => boolean = () => false,
): ConversationsActions {
  const remember = (id: string | null) => {
    try {
      if (id === null) storage?.removeItem(ACTIVE_CONVERSATION_KEY);
      else storage?.setItem(ACTIVE_CONVERSATION_KEY, id);
    } catch {
      // Storage disabled: the page simply starts on the newest conversation.
    }
  };
  const remembered = () => {
    try {
      return storage?.getItem(ACTIVE_CONVERSATION_KEY) ?? null;
    } catch {
      return null;
    }
  };
  /** Searches are answered out of order when typed fast: only the latest query's answer counts. */
  let searchSeq = 0;

  const actions: ConversationsActions = {
    async load() {
      store.setState({ status: 'loading' });
      const result = await api.invoke('conversations.list', { trash: false });
      if (!result.ok) {
        store.setState({ status: 'failed', error: result.error });
        return;
      }
      const conversations = [...result.value.conversations].sort(byNewest);
      const { activeId } = store.getState();
      const wanted = activeId ?? remembered();
      const keep = conversations.some((item) => item.id === wanted) ? wanted : (conversations[0]?.id ?? null);
      store.setState({ conversations, status: 'ready', error: null, activeId: keep });
      remember(keep);
      if (store.getState().query !== '') await actions.search(store.getState().query);
    },

    async create() {
      const { activeId, conversations } = store.getState();
      const current = conversations.find((item) => item.id === activeId);
      if (current !== undefined && isUntouched(current, hasDraft)) return actions.adopt(current);
      const result = await api.invoke('conversations.create', {});
      if (!result.ok) {
        store.setState({ error: result.error });
        return null;
      }
      return actions.adopt(result.value);
    },

    adopt(summary) {
      store.setState((state) => ({
        conversations: upsert(state.conversations, summary),
        activeId: summary.id,
        error: null,
        query: '',
        searchResults: null,
      }));
      remember(summary.id);
      return summary;
    },

    select(id) {
      store.setState({ activeId: id });
      remember(id);
    },

    async rename(id, title) {
      const trimmed = title.trim();
      const current = store.getState().conversations.find((item) => item.id === id);
      if (trimmed === '' || trimmed === current?.title) return true;
      const result = await api.invoke('conversations.rename', { id, title: trimmed });
      if (!result.ok) {
        store.setState({ error: result.error });
        return false;
      }
      actions.applyChange({ kind: 'upsert', conversation: result.value });
      return true;
    },

    async remove(id) {
      const summary = store.getState().conversations.find((item) => item.id === id) ?? null;
      const result = await api.invoke('conversations.delete', { id });
      if (!result.ok) {
        store.setState({ error: result.error });
        return;
      }
      actions.applyChange({ kind: 'removed', id });
      store.setState({ recentlyDeleted: summary, error: null });
    },

    async undoRemove() {
      const deleted = store.getState().recentlyDeleted;
      if (deleted === null) return;
      store.setState({ recentlyDeleted: null });
      const result = await api.invoke('conversations.restore', { id: deleted.id });
      if (!result.ok) {
        store.setState({ error: result.error });
        return;
      }
      actions.applyChange({ kind: 'upsert', conversation: result.value });
      actions.select(result.value.id);
    },

    dismissUndo: () => store.setState({ recentlyDeleted: null }),

    async search(query) {
      const seq = ++searchSeq;
      store.setState({ query });
      if (query.trim() === '') {
        store.setState({ searchResults: null });
        return;
      }
      const result = await api.invoke('conversations.search', { query: query.trim().slice(0, 200) });
      if (seq !== searchSeq) return;
      store.setState(result.ok ? { searchResults: result.value.conversations, error: null } : { error: result.error });
    },

    applyChange(change) {
      store.setState((state) => {
        if (change.kind === 'upsert') {
          const inResults = state.searchResults?.some((item) => item.id === change.conversation.id) === true;
          return {
            conversations: upsert(state.conversations, change.conversation),
            searchResults:
              state.searchResults !== null && inResults
                ? upsert(state.searchResults, change.conversation)
                : state.searchResults,
          };
        }
        const conversations = state.conversations.filter((item) => item.id !== change.id);
        const activeId = state.activeId === change.id ? (conversations[0]?.id ?? null) : state.activeId;
        return {
          conversations,
          activeId,
          searchResults: state.searchResults?.filter((item) => item.id !== change.id) ?? null,
        };
      });
      remember(store.getState().activeId);
      // A renamed or new conversation may now match (or no longer match) the search.
      const { query } = store.getState();
      if (change.kind === 'upsert' && query.trim() !== '') void actions.search(query);
    },
  };
  return actions;
}
