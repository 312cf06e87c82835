import { randomUUID } from 'node:crypto';
import type { ApprovalAnswer, ApprovalRequest } from '../../../shared/ipc/approvals';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';

export type ApprovalInput = Omit<ApprovalRequest, 'id' | 'createdAt' | 'expiresAt'>;

export type ApprovalOutcome =
  | {
      readonly approved: true;
      readonly editedContent?: string;
      readonly allowForConversation: boolean;
      /** A network question only: the host is allowed in this workspace from now on. */
      readonly allowForWorkspace?: boolean;
      /** An MCP server tool only: this tool of this server is allowed from now on. */
      readonly allowAlways?: boolean;
      /** A server's form only: the values the user gave. */
      readonly elicitationContent?: Readonly<Record<string, string | number | boolean | string[]>>;
    }
  | {
      readonly approved: false;
      readonly reason: string;
      readonly expired: boolean;
      /** A server's question only: closed without an answer (cancel) rather than declined. */
      readonly dismissed?: boolean;
      /** Withdrawn (the turn stopped, the conversation went), not answered by anyone. */
      readonly cancelled?: boolean;
    };

export interface ApprovalBrokerOptions {
  /** How long a request waits for the user before it counts as rejected (default 10 minutes). */
  readonly timeoutMs?: number;
  readonly onRequested: (request: ApprovalRequest) => void;
  readonly onResolved: (request: ApprovalRequest, outcome: ApprovalOutcome, kind: ResolvedKind) => void;
  readonly now?: () => Date;
}

export type ResolvedKind = 'approved' | 'approved-edited' | 'rejected' | 'expired' | 'cancelled';

export interface ApprovalBroker {
  /** Raises a request and waits for the user; an aborted signal rejects it as cancelled. */
  request(input: ApprovalInput, signal?: AbortSignal): Promise<ApprovalOutcome>;
  answer(answer: ApprovalAnswer): Result<{ request: ApprovalRequest; kind: ResolvedKind; reason?: string }>;
  pending(): readonly ApprovalRequest[];
  cancelConversation(conversationId: string, reason: string): void;
}

interface Waiting {
  readonly request: ApprovalRequest;
  readonly settle: (outcome: ApprovalOutcome, kind: ResolvedKind) => void;
}

export const DEFAULT_APPROVAL_TIMEOUT_MS = 10 * 60 * 1000;

/** Human in the loop: requests wait in order until answered, expired or cancelled. */
export function createApprovalBroker(options: ApprovalBrokerOptions): ApprovalBroker {
  const timeoutMs = options.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  const now = options.now ?? (() => new Date());
  // Map keeps insertion order: the queue the user sees.
  const waiting = new Map<string, Waiting>();

  const request: ApprovalBroker['request'] = (input, signal) =>
    new Promise((resolve) => {
      const created = now();
      const full: ApprovalRequest = {
        ...input,
        id: randomUUID(),
        createdAt: created.toISOString(),
        expiresAt: new Date(created.getTime() + timeoutMs).toISOString(),
      };
      const minutes = Math.round(timeoutMs / 60_000);
      const timer = setTimeout(
        () =>
          settle(
            { approved: false, reason: `The user did not answer within ${minutes} minute(s).`, expired: true },
            'expired',
          ),
        timeoutMs,
      );
      const onAbort = () =>
        settle(
          {
            approved: false,
            reason: 'The turn was stopped before the user answered.',
            expired: false,
            cancelled: true,
          },
          'cancelled',
        );
      function settle(outcome: ApprovalOutcome, kind: ResolvedKind) {
        if (!waiting.delete(full.id)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        options.onResolved(full, outcome, kind);
        resolve(outcome);
      }
      waiting.set(full.id, { request: full, settle });
      if (signal?.aborted === true) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      options.onRequested(full);
    });

  return {
    request,
    answer(answer) {
      const entry = waiting.get(answer.id);
      if (entry === undefined) {
        return err('not_found', 'This approval is no longer pending (answered, expired or cancelled).');
      }
      if (answer.decision === 'reject') {
        const reason = answer.reason !== undefined && answer.reason !== '' ? answer.reason : 'The user rejected it.';
        const dismissed = answer.dismissed === true && entry.request.elicitation !== undefined;
        entry.settle({ approved: false, reason, expired: false, ...(dismissed ? { dismissed } : {}) }, 'rejected');
        return ok({ request: entry.request, kind: 'rejected', reason });
      }
      const allowForConversation = answer.allowForConversation && entry.request.canAllowForConversation;
      const network = entry.request.network !== undefined && answer.allowForWorkspace === true;
      const always = entry.request.mcp !== undefined && answer.allowAlways === true;
      const content = entry.request.elicitation === undefined ? undefined : answer.elicitationContent;
      const allowed = {
        allowForConversation,
        ...(network ? { allowForWorkspace: true } : {}),
        ...(always ? { allowAlways: true } : {}),
        ...(content === undefined ? {} : { elicitationContent: content }),
      };
      const edited = answer.editedContent;
      // A change to several files is applied as the tool computed it: there is no one text to edit.
      if (edited !== undefined && entry.request.files !== undefined) {
        return err('invalid_payload', 'A change to several files is approved or rejected as shown, not edited.');
      }
      if (edited !== undefined && edited !== entry.request.after) {
        entry.settle({ approved: true, editedContent: edited, ...allowed }, 'approved-edited');
        return ok({ request: entry.request, kind: 'approved-edited' });
      }
      entry.settle({ approved: true, ...allowed }, 'approved');
      return ok({ request: entry.request, kind: 'approved' });
    },
    pending: () => [...waiting.values()].map((entry) => entry.request),
    cancelConversation(conversationId, reason) {
      for (const entry of [...waiting.values()]) {
        if (entry.request.conversationId === conversationId) {
          entry.settle({ approved: false, reason, expired: false, cancelled: true }, 'cancelled');
        }
      }
    },
  };
}
