import { ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import type { ToolCallRequest } from '../agent/tool-executor';
import type { ApprovalBroker } from '../approvals/broker';
import type { AnyTool, Approval, ChangePreview, ToolAccess, ToolContext } from '../tools/define-tool';
import { canAllowForConversation } from './check-accesses';

export interface ApprovalRequestInput {
  readonly tool: AnyTool;
  readonly args: unknown;
  readonly ctx: ToolContext;
  readonly call: ToolCallRequest;
  readonly accesses: readonly ToolAccess[];
  readonly persona: boolean;
  readonly broker: ApprovalBroker;
  readonly warnings?: readonly string[];
  readonly promptPreview?: (soulText: string) => string;
}

export type ApprovalAnswerForCall =
  | {
      readonly approved: true;
      readonly approval: Approval;
      readonly allowForConversation: boolean;
      readonly summary: string;
    }
  | { readonly approved: false; readonly reason: string; readonly expired: boolean };

const bytes = (text: string | undefined) => (text === undefined ? undefined : Buffer.byteLength(text, 'utf8'));

/** Without a prepare(), the user still sees exactly what the model asked for. */
function fallbackPreview(tool: AnyTool, args: unknown): ChangePreview {
  const shown = JSON.stringify(args);
  return { summary: `${tool.name} ${shown.length > 300 ? `${shown.slice(0, 300)}…` : shown}` };
}

/**
 * Asks the user about one call: prepare() says what would change (reading, never writing), the
 * broker waits for the answer. A prepare() that fails (file missing, binary...) fails the call
 * the same way the tool would, before anyone is bothered.
 */
export async function requestApproval(input: ApprovalRequestInput): Promise<Result<ApprovalAnswerForCall>> {
  const { tool, args, ctx, call } = input;
  let preview: ChangePreview;
  if (tool.prepare === undefined) {
    preview = fallbackPreview(tool, args);
  } else {
    const prepared = await tool.prepare(args, ctx);
    if (!prepared.ok) return prepared;
    preview = prepared.value;
  }
  const beforeBytes = bytes(preview.before);
  const afterBytes = bytes(preview.after);
  const outcome = await input.broker.request(
    {
      conversationId: call.conversationId,
      toolCallId: call.toolCallId,
      tool: tool.name,
      summary: preview.summary,
      paths: input.accesses.map((access) => access.path),
      operations: [...new Set(input.accesses.map((access) => access.operation))],
      ...(preview.before === undefined ? {} : { before: preview.before }),
      ...(preview.after === undefined ? {} : { after: preview.after }),
      ...(beforeBytes === undefined ? {} : { beforeBytes }),
      ...(afterBytes === undefined ? {} : { afterBytes }),
      facts: { ...preview.facts },
      persona: input.persona,
      canAllowForConversation: canAllowForConversation(input.accesses, input.persona),
      warnings: [...(input.warnings ?? [])],
      ...(input.persona && preview.after !== undefined && input.promptPreview !== undefined
        ? { promptPreview: input.promptPreview(preview.after) }
        : {}),
    },
    ctx.signal,
  );
  if (!outcome.approved) return ok(outcome);
  const approval: Approval = {
    ...(outcome.editedContent === undefined ? {} : { editedContent: outcome.editedContent }),
    ...(preview.before === undefined ? {} : { shownBefore: preview.before }),
  };
  return ok({ approved: true, approval, allowForConversation: outcome.allowForConversation, summary: preview.summary });
}
