import type { ImageUpload } from '../../../shared/chat-images';
import type { McpAttachmentRequest } from '../../../shared/mcp-attachments';
import { create } from 'zustand';
import type { FamiliarError } from '../../../shared/errors';
import type { ApprovalRequest } from '../../../shared/ipc/approvals';
import type { ChatEvent } from '../../../shared/ipc/chat';
import type { EventPayload, FamiliarApi } from '../../../shared/ipc/contract';
import { emptyThread, endsTurn, foldChatEvent, withApproval } from './chat-fold';
import type { ChatThread } from './chat-fold';

export interface ThreadEntry {
  readonly status: 'loading' | 'ready' | 'failed';
  readonly thread: ChatThread;
  readonly loadError: FamiliarError | null;
  /** Damaged transcript lines the core skipped (a crash mid-write). */
  readonly skippedLines: number;
  /** A chat.send / chat.stop / chat.retry call is on its way. */
  readonly busy: 'sending' | 'stopping' | 'retrying' | null;
  /** Why the last send or retry was refused (provider_not_configured, turn_in_progress, not_found...). */
  readonly actionError: FamiliarError | null;
  /**
   * Opened while a turn was running: text streamed before the snapshot but after the core's last
   * transcript write is not in it, so the thread is reloaded when that turn ends.
   */
  readonly joinedMidTurn: boolean;
}

export interface ChatState {
  readonly threads: Readonly<Record<string, ThreadEntry>>;
  /** conversationId → running turnId, for every conversation (the list marks them). */
  readonly running: Readonly<Record<string, string>>;
  /** toolCallId → approval id, for tool calls waiting for the user's answer. */
  readonly awaitingApproval: Readonly<Record<string, string>>;
}

export const initialChatState = (): ChatState => ({ threads: {}, running: {}, awaitingApproval: {} });

export const useChatStore = create<ChatState>(initialChatState);

const newEntry = (): ThreadEntry => ({
  status: 'loading',
  thread: emptyThread(),
  loadError: null,
  skippedLines: 0,
  busy: null,
  actionError: null,
  joinedMidTurn: false,
});

export interface ChatActions {
  /** Loads a conversation (again when `force`); live events keep it current afterwards. */
  readonly open: (conversationId: string, options?: { force?: boolean }) => Promise<void>;
  /** Sends a message; answers whether the core accepted it (the reply streams as events). */
  readonly send: (
    conversationId: string,
    text: string,
    images?: readonly ImageUpload[],
    mcp?: readonly McpAttachmentRequest[],
  ) => Promise<boolean>;
  readonly stop: (conversationId: string) => Promise<void>;
  readonly retry: (conversationId: string) => Promise<void>;
  readonly dismissActionError: (conversationId: string) => void;
  /** Drops a conversation that went to the trash. */
  readonly forget: (conversationId: string) => void;
  readonly handleEvent: (event: ChatEvent) => void;
  readonly approvalRequested: (request: ApprovalRequest) => void;
  readonly approvalResolved: (resolved: EventPayload<'approvals.resolved'>) => void;
  /** Learns which tool calls wait for the user right now (at start and after a reconnect). */
  readonly syncApprovals: () => Promise<void>;
  /** After a reconnect: reload every open thread (events were missed while the link was down). */
  readonly reloadAll: () => Promise<void>;
}

/** The chat feature's actions over the contract; `store` and `now` are parameters so tests own them. */
export function createChatActions(api: FamiliarApi, store = useChatStore, now = Date.now): ChatActions {
  /** Events that arrived while a conversation's snapshot was on its way, folded in once it lands. */
  const arrivedWhileLoading = new Map<string, ChatEvent[]>();
  /** The load in flight per conversation, so a second open waits for it instead of racing it. */
  const inflight = new Map<string, Promise<void>>();

  const patch = (conversationId: string, update: (entry: ThreadEntry) => ThreadEntry) =>
    store.setState((state) => {
      const entry = state.threads[conversationId];
      return entry === undefined ? state : { threads: { ...state.threads, [conversationId]: update(entry) } };
    });

  async function load(conversationId: string): Promise<void> {
    store.setState((state) => {
      const existing = state.threads[conversationId];
      return {
        threads: {
          ...state.threads,
          [conversationId]:
            existing === undefined || existing.status === 'failed' ? newEntry() : { ...existing, status: 'loading' },
        },
      };
    });
    arrivedWhileLoading.set(conversationId, []);
    const result = await api.invoke('conversations.open', { id: conversationId });
    const arrived = arrivedWhileLoading.get(conversationId) ?? [];
    arrivedWhileLoading.delete(conversationId);
    if (!result.ok) {
      patch(conversationId, (entry) => ({ ...entry, status: 'failed', loadError: result.error }));
      return;
    }
    const { messages, runningTurnId, skippedLines } = result.value;
    const inSnapshot = new Set(messages.filter((message) => message.role === 'assistant').map((message) => message.id));
    if (runningTurnId !== null) inSnapshot.add(runningTurnId);
    let thread: ChatThread = { messages, runningTurnId, errorReceivedAt: {} };
    let stale = false;
    for (const event of arrived) {
      // A turn the snapshot already holds may hold some of these events too: replaying them could
      // double its text. Its end means the snapshot is behind: load again instead.
      if (inSnapshot.has(event.turnId)) stale ||= endsTurn(event);
      else thread = foldChatEvent(thread, event, now());
    }
    patch(conversationId, (entry) => ({
      ...entry,
      status: 'ready',
      loadError: null,
      skippedLines,
      thread: { ...thread, errorReceivedAt: { ...entry.thread.errorReceivedAt, ...thread.errorReceivedAt } },
      joinedMidTurn: runningTurnId !== null,
    }));
    store.setState((state) => {
      const running = { ...state.running };
      if (thread.runningTurnId === null) delete running[conversationId];
      else running[conversationId] = thread.runningTurnId;
      return { running };
    });
    if (stale) await load(conversationId);
  }

  const actions: ChatActions = {
    open(conversationId, options = {}) {
      const loading = inflight.get(conversationId);
      if (loading !== undefined && options.force !== true) return loading;
      const existing = store.getState().threads[conversationId];
      if (existing !== undefined && options.force !== true && existing.status !== 'failed') return Promise.resolve();
      // Two loads at once would share the buffer of events that arrived meanwhile: a forced load waits its turn.
      const run = (loading ?? Promise.resolve())
        .then(() => load(conversationId))
        .finally(() => {
          if (inflight.get(conversationId) === run) inflight.delete(conversationId);
        });
      inflight.set(conversationId, run);
      return run;
    },

    async send(conversationId, text, images = [], mcp = []) {
      patch(conversationId, (entry) => ({ ...entry, busy: 'sending', actionError: null }));
      const result = await api.invoke('chat.send', {
        conversationId,
        text,
        ...(images.length === 0 ? {} : { images: [...images] }),
        ...(mcp.length === 0 ? {} : { mcp: [...mcp] }),
      });
      patch(conversationId, (entry) => ({ ...entry, busy: null, actionError: result.ok ? null : result.error }));
      return result.ok;
    },

    async stop(conversationId) {
      patch(conversationId, (entry) => ({ ...entry, busy: 'stopping' }));
      const result = await api.invoke('chat.stop', { conversationId });
      patch(conversationId, (entry) => ({ ...entry, busy: null, actionError: result.ok ? null : result.error }));
    },

    async retry(conversationId) {
      patch(conversationId, (entry) => ({ ...entry, busy: 'retrying', actionError: null }));
      const result = await api.invoke('chat.retry', { conversationId });
      patch(conversationId, (entry) => ({ ...entry, busy: null, actionError: result.ok ? null : result.error }));
    },

    dismissActionError: (conversationId) => patch(conversationId, (entry) => ({ ...entry, actionError: null })),

    forget: (conversationId) =>
      store.setState((state) => {
        const threads = { ...state.threads };
        const running = { ...state.running };
        delete threads[conversationId];
        delete running[conversationId];
        return { threads, running };
      }),

    handleEvent(event) {
      const { conversationId } = event;
      store.setState((state) => {
        const running = { ...state.running };
        if (event.type === 'turn-started') running[conversationId] = event.turnId;
        else if (endsTurn(event) && running[conversationId] === event.turnId) delete running[conversationId];
        const entry = state.threads[conversationId];
        if (entry?.status !== 'ready') return { running };
        return {
          running,
          threads: {
            ...state.threads,
            [conversationId]: { ...entry, thread: foldChatEvent(entry.thread, event, now()) },
          },
        };
      });
      arrivedWhileLoading.get(conversationId)?.push(event);
      // While loading, the load itself sees the end among the events that arrived and loads again.
      const entry = store.getState().threads[conversationId];
      if (endsTurn(event) && entry?.status === 'ready' && entry.joinedMidTurn) {
        void actions.open(conversationId, { force: true });
      }
    },

    approvalRequested: (request) =>
      store.setState((state) => ({
        awaitingApproval: { ...state.awaitingApproval, [request.toolCallId]: request.id },
      })),

    approvalResolved: (resolved) => {
      const held = Object.entries(store.getState().awaitingApproval).find(
        ([, approvalId]) => approvalId === resolved.id,
      );
      store.setState((state) => ({
        awaitingApproval: Object.fromEntries(
          Object.entries(state.awaitingApproval).filter(([, approvalId]) => approvalId !== resolved.id),
        ),
      }));
      if (held === undefined) return;
      patch(resolved.conversationId, (entry) => ({
        ...entry,
        thread: withApproval(entry.thread, held[0], resolved.outcome, resolved.reason),
      }));
    },

    async syncApprovals() {
      const result = await api.invoke('approvals.list', {});
      if (!result.ok) return;
      store.setState({
        awaitingApproval: Object.fromEntries(result.value.pending.map((request) => [request.toolCallId, request.id])),
      });
    },

    async reloadAll() {
      // Turns may have ended unseen; the open threads below report the ones still running.
      store.setState({ running: {} });
      const ids = Object.keys(store.getState().threads);
      await Promise.all(ids.map((id) => actions.open(id, { force: true })));
    },
  };
  return actions;
}
