import { create } from 'zustand';
import type { FamiliarError } from '../../../shared/errors';
import type { ApprovalAnswer, ApprovalOutcomeKind, ApprovalRequest } from '../../../shared/ipc/approvals';
import type { EventPayload, FamiliarApi } from '../../../shared/ipc/contract';
import { approveAnswer, dismissAnswer, emptyDraft, enqueue, nextCurrent, rejectAnswer } from './approval-queue';
import type { FieldDraft } from '../../../shared/elicitation-answer';
import type { ApprovalDraft, HostSpan } from './approval-queue';

export type DiffLayout = 'side-by-side' | 'inline';

export interface ApprovalsState {
  /** Pending requests, oldest first, as main holds them. */
  readonly queue: readonly ApprovalRequest[];
  /** The request on screen. */
  readonly currentId: string | null;
  readonly draft: ApprovalDraft;
  /** The user's choice of diff layout, kept across requests. */
  readonly layout: DiffLayout;
  readonly sending: boolean;
  readonly error: FamiliarError | null;
  /** A request that closed without the user's answer here (expired, stopped, answered elsewhere). */
  readonly notice: { readonly summary: string; readonly outcome: ApprovalOutcomeKind | 'gone' } | null;
}

const initial: ApprovalsState = {
  queue: [],
  currentId: null,
  draft: emptyDraft,
  layout: 'side-by-side',
  sending: false,
  error: null,
  notice: null,
};

export const useApprovalsStore = create<ApprovalsState>()(() => initial);

const get = useApprovalsStore.getState;
const set = useApprovalsStore.setState;

export const selectCurrent = (state: ApprovalsState): ApprovalRequest | null =>
  state.queue.find((request) => request.id === state.currentId) ?? null;

function remove(id: string): void {
  const { queue, currentId } = get();
  const after = queue.filter((request) => request.id !== id);
  const current = nextCurrent(queue, after, currentId, id);
  set({ queue: after, currentId: current, ...(current === currentId ? {} : { draft: emptyDraft, error: null }) });
}

function updateDraft(change: Partial<ApprovalDraft>): void {
  set({ draft: { ...get().draft, ...change }, error: null });
}

export const approvalsActions = {
  reset: (): void => {
    set(initial);
  },

  received: (request: ApprovalRequest): void => {
    const queue = enqueue(get().queue, request);
    set({ queue, currentId: get().currentId ?? request.id, notice: null });
  },

  resolved: (event: EventPayload<'approvals.resolved'>): void => {
    const request = get().queue.find((held) => held.id === event.id);
    if (request === undefined) return;
    remove(event.id);
    // Our own answers close silently; anything else deserves a word.
    if (!get().sending) set({ notice: { summary: request.summary, outcome: event.outcome } });
  },

  /** Replaces the queue with main's list (start-up and after a reconnect). */
  load: async (api: FamiliarApi): Promise<void> => {
    const heldBefore = new Set(get().queue.map((request) => request.id));
    const result = await api.invoke('approvals.list', {});
    if (!result.ok) {
      set({ error: result.error });
      return;
    }
    // main's list is the truth, except for requests announced while it was on its way.
    const arrivedMeanwhile = get().queue.filter((request) => !heldBefore.has(request.id));
    const queue = [...result.value.pending, ...arrivedMeanwhile].reduce<ApprovalRequest[]>(enqueue, []);
    const { currentId } = get();
    const keep = queue.some((request) => request.id === currentId);
    set({ queue, currentId: keep ? currentId : (queue[0]?.id ?? null), ...(keep ? {} : { draft: emptyDraft }) });
  },

  connect: (api: FamiliarApi): (() => void) => {
    const stops = [
      api.on('approvals.requested', approvalsActions.received),
      api.on('approvals.resolved', approvalsActions.resolved),
    ];
    void approvalsActions.load(api);
    return () => stops.forEach((stop) => stop());
  },

  show: (id: string): void => {
    if (id !== get().currentId) set({ currentId: id, draft: emptyDraft, error: null });
  },
  showNext: (step: 1 | -1): void => {
    const { queue, currentId } = get();
    const index = queue.findIndex((request) => request.id === currentId);
    const next = queue[index + step];
    if (next !== undefined) approvalsActions.show(next.id);
  },

  setLayout: (layout: DiffLayout): void => {
    set({ layout });
  },
  startEditing: (): void => {
    const request = selectCurrent(get());
    updateDraft({ editing: true, editedText: get().draft.editedText ?? request?.after ?? '' });
  },
  stopEditing: (): void => {
    updateDraft({ editing: false, editedText: null });
  },
  setEditedText: (editedText: string): void => {
    updateDraft({ editedText });
  },
  setAllowForConversation: (allowForConversation: boolean): void => {
    updateDraft({ allowForConversation });
  },
  setHostSpan: (span: HostSpan): void => {
    updateDraft({ allowForConversation: span === 'conversation', allowForWorkspace: span === 'workspace' });
  },
  startRejecting: (): void => {
    updateDraft({ rejecting: true });
  },
  stopRejecting: (): void => {
    updateDraft({ rejecting: false });
  },
  setReason: (reason: string): void => {
    updateDraft({ reason });
  },
  setField: (name: string, value: FieldDraft): void => {
    updateDraft({ fields: { ...get().draft.fields, [name]: value } });
  },
  dismissNotice: (): void => {
    set({ notice: null });
  },

  approve: async (api: FamiliarApi): Promise<void> => {
    const request = selectCurrent(get());
    if (request !== null) await answer(api, request, approveAnswer(request, get().draft));
  },
  reject: async (api: FamiliarApi): Promise<void> => {
    const request = selectCurrent(get());
    if (request !== null) await answer(api, request, rejectAnswer(request, get().draft));
  },
  /** A server's question: closed without answering (the server hears "cancel", not "decline"). */
  dismiss: async (api: FamiliarApi): Promise<void> => {
    const request = selectCurrent(get());
    if (request !== null) await answer(api, request, dismissAnswer(request));
  },
};

async function answer(api: FamiliarApi, request: ApprovalRequest, payload: ApprovalAnswer): Promise<void> {
  if (get().sending) return;
  set({ sending: true, error: null, notice: null });
  const result = await api.invoke('approvals.answer', payload);
  if (result.ok || result.error.code === 'not_found') {
    // not_found: it closed meanwhile (expired, stopped, answered in another window).
    remove(request.id);
    set({ sending: false, ...(result.ok ? {} : { notice: { summary: request.summary, outcome: 'gone' as const } }) });
  } else {
    set({ sending: false, error: result.error });
  }
}
