import type { ApprovalAnswer, ApprovalRequest } from '../../../shared/ipc/approvals';
import { elicitationContent } from '../../../shared/elicitation-answer';
import type { FieldDraft } from '../../../shared/elicitation-answer';

/** Adds a request once (a reconnect may list one we already hold), keeping the oldest first. */
export function enqueue(queue: readonly ApprovalRequest[], request: ApprovalRequest): ApprovalRequest[] {
  const rest = queue.filter((held) => held.id !== request.id);
  const index = rest.findIndex((held) => held.createdAt > request.createdAt);
  return index === -1 ? [...rest, request] : [...rest.slice(0, index), request, ...rest.slice(index)];
}

/** Which request to show after `removedId` leaves: the one that took its place, else the one before. */
export function nextCurrent(
  before: readonly ApprovalRequest[],
  after: readonly ApprovalRequest[],
  currentId: string | null,
  removedId: string,
): string | null {
  if (currentId !== removedId && after.some((request) => request.id === currentId)) return currentId;
  const index = before.findIndex((request) => request.id === removedId);
  return (after[Math.min(Math.max(index, 0), after.length - 1)] ?? null)?.id ?? null;
}

/** What the user has decided so far about the request on screen. */
export interface ApprovalDraft {
  /** The right side of the diff is editable, and `editedText` is what will be written. */
  readonly editing: boolean;
  readonly editedText: string | null;
  readonly allowForConversation: boolean;
  /** A network question: allow the host in this workspace from now on. */
  readonly allowForWorkspace: boolean;
  readonly rejecting: boolean;
  readonly reason: string;
  /** A server's form: what the user has put in each field so far, by field name. */
  readonly fields: Readonly<Record<string, FieldDraft>>;
}

export const emptyDraft: ApprovalDraft = {
  editing: false,
  editedText: null,
  allowForConversation: false,
  allowForWorkspace: false,
  rejecting: false,
  reason: '',
  fields: {},
};

/** The approve answer exactly as the contract wants it: edited text only when the user edited. */
export function approveAnswer(request: ApprovalRequest, draft: ApprovalDraft): ApprovalAnswer {
  const edited = draft.editing && draft.editedText !== null ? { editedContent: draft.editedText } : {};
  return {
    id: request.id,
    decision: 'approve',
    allowForConversation: draft.allowForConversation && request.canAllowForConversation,
    ...(request.network !== undefined && draft.allowForWorkspace ? { allowForWorkspace: true } : {}),
    // An MCP server tool's "always" rides the same draft field as a host's "this workspace".
    ...(request.mcp !== undefined && draft.allowForWorkspace ? { allowAlways: true } : {}),
    ...(request.elicitation?.mode === 'form'
      ? { elicitationContent: elicitationContent(request.elicitation.fields, draft.fields).content }
      : {}),
    ...edited,
  };
}

/** How long a network question's "allow" lasts: this command, the conversation, or this workspace from now on. */
export type HostSpan = 'once' | 'conversation' | 'workspace';

export const hostSpanOf = (draft: ApprovalDraft): HostSpan =>
  draft.allowForWorkspace ? 'workspace' : draft.allowForConversation ? 'conversation' : 'once';

/** A server's question closed without an answer (cancel), as opposed to declined. */
export const dismissAnswer = (request: ApprovalRequest): ApprovalAnswer => ({
  id: request.id,
  decision: 'reject',
  dismissed: true,
});

export function rejectAnswer(request: ApprovalRequest, draft: ApprovalDraft): ApprovalAnswer {
  const reason = draft.reason.trim();
  return reason === '' ? { id: request.id, decision: 'reject' } : { id: request.id, decision: 'reject', reason };
}

/** A write or edit with both texts gets the diff; deletes, moves and commands get a summary. */
export const hasDiff = (request: ApprovalRequest): boolean =>
  request.before !== undefined && request.after !== undefined;

/** A change to several files (a rename) gets the file list and a diff per file, and no edit mode. */
export const hasFiles = (request: ApprovalRequest): boolean => request.files !== undefined && request.files.length > 0;
