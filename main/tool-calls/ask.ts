import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import type { ApprovalBroker, ApprovalInput } from '../domain/approvals/broker';
import type { McpApprovals } from '../domain/mcp-servers/mcp-approvals';
import { MAX_MCP_ARGUMENT_CHARS } from '../../shared/ipc/approvals';
import { canAllowForConversation } from '../domain/policy/check-accesses';
import type { AnyTool, ChangePreview, ToolContext } from '../tools/define-tool';
import type { Allowances } from './allowances';
import type { Approved, Decided } from './call-session';
import type { Approver } from './tool-executor';
import { guarded } from './run';
import type { RunLimits } from './run';

/**
 * 'interactive' asks the user through the broker; MCP mode refuses ('refuse', unless its client can
 * ask its user: see AskInputs.approver) or trusts its caller ('approve-all', the --approve flag).
 */
export type ApprovalMode = 'interactive' | 'refuse' | 'approve-all';

export interface AskInputs {
  readonly mode: ApprovalMode;
  readonly broker: ApprovalBroker;
  /** This call's own way to ask (MCP elicitation): used instead of the broker, whatever the mode but approve-all. */
  readonly approver?: Approver;
  /** Nobody watches this call (CallHooks.unattended): nobody is asked, whatever the mode but approve-all. */
  readonly unattended?: boolean;
  readonly allowances: Allowances;
  /** Where the answers about MCP server tools are kept. */
  readonly mcpApprovals?: McpApprovals;
  readonly limits: RunLimits;
  /** The SOUL.md section of the system prompt as it would read with this text (for the dialog). */
  readonly promptPreview?: (soulText: string) => string;
}

/**
 * Who asks a person for this call: the front door's own approver (MCP elicitation), else the broker
 * when the user is there to answer; undefined when nobody can be asked.
 */
export const approverFor = (
  mode: ApprovalMode,
  broker: ApprovalBroker,
  approver: Approver | undefined,
): Approver | undefined =>
  approver ?? (mode === 'interactive' ? (input, signal) => broker.request(input, signal) : undefined);

const bytes = (text: string | undefined) => (text === undefined ? undefined : Buffer.byteLength(text, 'utf8'));
const totalBytes = (texts: readonly string[]) => texts.reduce((sum, text) => sum + Buffer.byteLength(text, 'utf8'), 0);

/** Without a prepare(), the user still sees exactly what the model asked for. */
function fallbackPreview(tool: AnyTool, args: unknown): ChangePreview {
  if (tool.mcp !== undefined) {
    return { summary: `Run ${tool.mcp.title ?? tool.mcp.tool} on the MCP server "${tool.mcp.server}"` };
  }
  const shown = JSON.stringify(args);
  return { summary: `${tool.name} ${shown.length > 300 ? `${shown.slice(0, 300)}…` : shown}` };
}

/**
 * What the user will be shown: prepare() reads, never writes, and runs under the same guard as a
 * run, so a throwing or hanging preview is a typed error. Also what tool tests preview with.
 */
export function previewCall(
  tool: AnyTool,
  args: unknown,
  ctx: ToolContext,
  limits: RunLimits,
): Promise<Result<ChangePreview>> {
  const prepare = tool.prepare?.bind(tool);
  if (prepare === undefined) return Promise.resolve(ok(fallbackPreview(tool, args)));
  return guarded(`${tool.name} (preview)`, ctx, (previewCtx) => prepare(args, previewCtx), limits);
}

/** What the approval card shows of a server tool's call: every argument, formatted. */
function mcpCard(origin: NonNullable<AnyTool['mcp']>, args: unknown): NonNullable<ApprovalInput['mcp']> {
  const formatted = JSON.stringify(args ?? {}, null, 2);
  const annotations = Object.fromEntries(
    Object.entries(origin.annotations).filter((entry): entry is [string, string | number | boolean] =>
      ['string', 'number', 'boolean'].includes(typeof entry[1]),
    ),
  );
  return {
    server: origin.server,
    tool: origin.tool,
    ...(origin.title === undefined ? {} : { title: origin.title }),
    annotations,
    arguments:
      formatted.length > MAX_MCP_ARGUMENT_CHARS
        ? `${formatted.slice(0, MAX_MCP_ARGUMENT_CHARS)}\n… (${formatted.length - MAX_MCP_ARGUMENT_CHARS} more characters)`
        : formatted,
  };
}

const pathSummary = (decided: Decided) => `${decided.tool.name} on ${decided.paths.join(', ')}`;

/**
 * ask: when the policy wants a person, the preview (previewCall) says what would change and the
 * broker waits for the answer. A prepare() that fails (file missing, binary...) fails the call the way the tool
 * would, before anyone is bothered.
 */
export async function ask(decided: Decided, inputs: AskInputs): Promise<Result<Approved>> {
  const { tool, args, ctx, request, accesses } = decided;
  if (!decided.needsApproval || inputs.mode === 'approve-all') return ok({ ...decided, summary: pathSummary(decided) });
  if (inputs.unattended === true) {
    return err(
      'approval_required',
      `${pathSummary(decided)} needs a person's approval, and this call runs unattended: nobody is asked.`,
    );
  }
  const approver = approverFor(inputs.mode, inputs.broker, inputs.approver);
  if (approver === undefined) {
    return err(
      'approval_required',
      `${pathSummary(decided)} needs a person's approval, which this session cannot ask for.`,
    );
  }
  const prepared = await previewCall(tool, args, ctx, inputs.limits);
  if (!prepared.ok) return prepared;
  const preview = prepared.value;
  const persona = decided.personaTargets.includes('SOUL.md');
  // Several files travel one by one (the dialog lists them); their combined document stays here,
  // for the concurrent-modification check, rather than crossing twice.
  const files = preview.files?.length ? preview.files : undefined;
  const shown = files === undefined ? { before: preview.before, after: preview.after } : {};
  const beforeBytes = files === undefined ? bytes(preview.before) : totalBytes(files.map((file) => file.before));
  const afterBytes = files === undefined ? bytes(preview.after) : totalBytes(files.map((file) => file.after));
  const outcome = await approver(
    {
      conversationId: request.conversationId,
      toolCallId: request.toolCallId,
      tool: tool.name,
      summary: preview.summary,
      paths: accesses.map((access) => access.path),
      operations: [...new Set(accesses.map((access) => access.operation))],
      ...(shown.before === undefined ? {} : { before: shown.before }),
      ...(shown.after === undefined ? {} : { after: shown.after }),
      ...(files === undefined ? {} : { files: files.map((file) => ({ ...file })) }),
      ...(beforeBytes === undefined ? {} : { beforeBytes }),
      ...(afterBytes === undefined ? {} : { afterBytes }),
      facts: { ...preview.facts },
      persona,
      // A multi-file change is decided as an edit of the whole workspace ('.'): "allow this file for
      // the conversation" would allow every later such change, so it is not offered.
      canAllowForConversation: files === undefined && canAllowForConversation(accesses),
      warnings: [...decided.warnings],
      ...(tool.mcp === undefined ? {} : { mcp: mcpCard(tool.mcp, args) }),
      ...(persona && preview.after !== undefined && inputs.promptPreview !== undefined
        ? { promptPreview: inputs.promptPreview(preview.after) }
        : {}),
    },
    ctx.signal,
  );
  if (!outcome.approved) {
    return err('user_rejected', `The user rejected this call. Their reason: ${outcome.reason}`, {
      reason: outcome.reason,
      expired: outcome.expired,
    });
  }
  if (outcome.allowForConversation) inputs.allowances.grant(ctx.conversationId, ctx.env.workspaceRoot, accesses);
  if (tool.mcp !== undefined) {
    if (outcome.allowForConversation) inputs.mcpApprovals?.allowForConversation(ctx.conversationId, tool.mcp);
    // Kept in settings; if that fails the answer still holds for this call.
    if (outcome.allowAlways === true) await inputs.mcpApprovals?.allowAlways(tool.mcp).catch(() => undefined);
  }
  return ok({
    ...decided,
    summary: preview.summary,
    approval: {
      ...(outcome.editedContent === undefined ? {} : { editedContent: outcome.editedContent }),
      ...(preview.before === undefined ? {} : { shownBefore: preview.before }),
    },
  });
}
