import type { ApprovalRequest } from '../../shared/ipc/approvals';
import type { ResolvedKind } from '../domain/approvals/broker';
import { hostKey } from '../domain/policy/allowed-hosts';
import type { ConversationStore } from '../domain/conversations/conversation-store';
import type { AuditLog } from '../platform/audit/audit-log';
import type { Logger } from '../platform/logging/logger';

/**
 * Where an approval's question and answer are kept (the assistant's recordApproval): the user's
 * answer in the conversation, so its tool card says so after a reload, and every step in the audit log.
 */
export function approvalRecorder(deps: {
  readonly conversations: ConversationStore;
  readonly audit: AuditLog;
  readonly logger: Logger;
}): (request: ApprovalRequest, outcome: 'requested' | ResolvedKind, reason?: string) => void {
  const { conversations, audit, logger } = deps;
  return (request, outcome, reason) => {
    // A network question is about a command that already runs: its card keeps the command's answer; a
    // server's question (elicitation, sampling) comes during a call already approved: the same.
    const during = request.network !== undefined || request.elicitation !== undefined || request.sampling !== undefined;
    const decision = during ? undefined : transcriptDecisionOf(outcome);
    if (decision !== undefined) {
      const record = { type: 'approval' as const, toolCallId: request.toolCallId, decision };
      conversations
        .append(request.conversationId, [reason === undefined ? record : { ...record, reason }])
        .then((appended) => {
          if (!appended.ok) logger.warn(`approval not recorded: ${appended.error.message}`);
        })
        .catch((error: unknown) => logger.error('could not record an approval in its conversation', error));
    }
    void audit.record({
      time: new Date().toISOString(),
      conversation: request.conversationId,
      tool: request.tool,
      paths: request.paths,
      outcome: outcome === 'rejected' || outcome === 'expired' || outcome === 'cancelled' ? 'user_rejected' : 'ok',
      duration_ms: 0,
      approval: outcome,
      approval_id: request.id,
      ...(request.network === undefined ? {} : { host: hostKey(request.network.host, request.network.port) }),
      // The reason is the user's own words: an incognito conversation leaves none of them on disk.
      // The rest of the line stays, so the trail of what was touched is whole.
      ...(reason === undefined || conversations.isIncognito(request.conversationId) ? {} : { reason }),
    });
  };
}

/** Answers the user gave (not expiries or stopped turns) as a transcript's approval decision. */
function transcriptDecisionOf(outcome: string): 'approved' | 'edited' | 'rejected' | undefined {
  if (outcome === 'approved') return 'approved';
  if (outcome === 'approved-edited') return 'edited';
  if (outcome === 'rejected') return 'rejected';
  return undefined;
}
