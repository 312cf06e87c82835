import type { Policy } from '../../shared/policy';
import { err } from '../../shared/result';
import type { Result } from '../../shared/result';
import type { ToolCallRequest, ToolDescriptor, ToolExecutor } from '../agent/tool-executor';
import type { ApprovalBroker } from '../approvals/broker';
import type { AnyTool, Approval, ToolAccess, ToolContext } from '../tools/define-tool';
import type { ToolEnvironment } from '../tools/tool-environment';
import { decide, normalizePolicyPath } from './decide';
import { requestApproval } from './request-approval';

/** 'interactive' asks the user; MCP mode refuses ('refuse') or trusts its caller ('approve-all'). */
export type ApprovalMode = 'interactive' | 'refuse' | 'approve-all';

export interface RefusedCall {
  readonly conversationId: string;
  readonly tool: string;
  readonly paths: readonly string[];
  readonly code: 'unknown_tool' | 'invalid_arguments' | 'permission_denied' | 'user_rejected' | 'approval_required';
}

export interface RegistryOptions {
  readonly tools: readonly AnyTool[];
  readonly policy: () => Policy;
  /** The memory switch as it applies to this conversation (an incognito one has it off). */
  readonly memoryEnabled: (conversationId: string) => boolean;
  readonly environment: (conversationId: string) => ToolEnvironment;
  /** The tool runner: rate limit, timeout, audit, then the tool itself. */
  readonly run: (tool: AnyTool, args: unknown, ctx: ToolContext, approval?: Approval) => Promise<Result<unknown>>;
  readonly broker: ApprovalBroker;
  readonly approvalMode: ApprovalMode;
  readonly recordRefusal: (call: RefusedCall) => void;
  readonly systemPrompt: (conversationId: string, tools: readonly ToolDescriptor[]) => Promise<string>;
}

export interface ToolRegistry extends ToolExecutor {
  /** The tools registered right now for this conversation: exactly what the model is offered. */
  registered(conversationId: string): readonly AnyTool[];
}

const PERSONA_PATH = 'SOUL.md';
const isPersona = (path: string) => normalizePolicyPath(path).toLowerCase() === PERSONA_PATH.toLowerCase();

/**
 * The one path from a model's tool call to the disk: is the tool registered (memory switch), are
 * its arguments valid, what does the policy say about each path, does the user approve — and only
 * then the runner. Every refusal is a typed value the model can read, and is audited.
 */
export function createToolRegistry(options: RegistryOptions): ToolRegistry {
  // "Allow this file for the rest of the conversation": conversation → normalized paths.
  const allowances = new Map<string, Set<string>>();

  const registered = (conversationId: string) =>
    options.tools.filter((tool) => tool.memoryOnly !== true || options.memoryEnabled(conversationId));

  const refuse = (
    call: ToolCallRequest,
    paths: readonly string[],
    code: RefusedCall['code'],
    message: string,
    details?: Record<string, unknown>,
  ) => {
    options.recordRefusal({ conversationId: call.conversationId, tool: call.name, paths, code });
    return err(code, message, details);
  };

  async function execute(call: ToolCallRequest, signal: AbortSignal): Promise<Result<unknown>> {
    const tool = registered(call.conversationId).find((candidate) => candidate.name === call.name);
    if (tool === undefined) {
      const exists = options.tools.some((candidate) => candidate.name === call.name);
      return refuse(
        call,
        [],
        'unknown_tool',
        exists
          ? `The tool ${call.name} is not available while memory is switched off.`
          : `There is no tool named ${call.name}. Use one of the tools you were given.`,
      );
    }
    const parsed = tool.input.safeParse(call.args);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`);
      return refuse(
        call,
        [],
        'invalid_arguments',
        `Invalid arguments for ${tool.name}: ${issues.slice(0, 5).join('; ')}`,
      );
    }
    const accesses: readonly ToolAccess[] = tool.access(parsed.data);
    const paths = accesses.map((access) => access.path);
    const memoryOn = options.memoryEnabled(call.conversationId);
    const policy = options.policy();
    const allowed = allowances.get(call.conversationId);
    let needsApproval = false;
    for (const access of accesses) {
      const verdict = decide(policy, access.operation, access.path, memoryOn);
      if (verdict.memoryOff) {
        return refuse(
          call,
          paths,
          'permission_denied',
          `${access.path} is part of the user's memory, and the user has switched memory off. Do not try to reach it another way.`,
          { path: access.path, reason: 'memory_off' },
        );
      }
      if (verdict.decision === 'deny') {
        return refuse(
          call,
          paths,
          'permission_denied',
          `The permission policy does not allow ${access.operation} on ${access.path}.`,
          {
            path: access.path,
            operation: access.operation,
          },
        );
      }
      if (verdict.decision === 'ask' && allowed?.has(normalizePolicyPath(access.path)) !== true) needsApproval = true;
    }

    const ctx: ToolContext = {
      conversationId: call.conversationId,
      signal,
      env: options.environment(call.conversationId),
    };
    let approval: Approval | undefined;
    if (needsApproval && options.approvalMode !== 'approve-all') {
      if (options.approvalMode === 'refuse') {
        return refuse(
          call,
          paths,
          'approval_required',
          `${tool.name} on ${paths.join(', ')} needs a person's approval, which this session cannot ask for.`,
        );
      }
      const answer = await requestApproval({
        tool,
        args: parsed.data,
        ctx,
        call,
        accesses,
        persona: paths.some(isPersona),
        broker: options.broker,
      });
      if (!answer.ok) return answer;
      if (!answer.value.approved) {
        return refuse(
          call,
          paths,
          'user_rejected',
          `The user rejected this call. Their reason: ${answer.value.reason}`,
          {
            reason: answer.value.reason,
            expired: answer.value.expired,
          },
        );
      }
      approval = answer.value.approval;
      if (answer.value.allowForConversation) {
        const set = allowed ?? new Set<string>();
        for (const path of paths) if (!isPersona(path)) set.add(normalizePolicyPath(path));
        allowances.set(call.conversationId, set);
      }
    }

    const result = await options.run(tool, parsed.data, ctx, approval);
    if (result.ok && approval?.editedContent !== undefined) {
      // The model must know the file now holds the user's text, not its proposal.
      return {
        ok: true,
        value: {
          result: result.value,
          user_edited: true,
          note: 'The user edited your proposed content before approving; the file now contains their version. Read it before changing it again.',
        },
      };
    }
    return result;
  }

  return {
    registered,
    list: (conversationId) =>
      registered(conversationId).map((tool) => ({ name: tool.name, description: tool.description, input: tool.input })),
    systemPrompt: (conversationId) =>
      options.systemPrompt(
        conversationId,
        registered(conversationId).map((tool) => ({
          name: tool.name,
          description: tool.description,
          input: tool.input,
        })),
      ),
    execute,
    cancelPending: (conversationId, reason) => options.broker.cancelConversation(conversationId, reason),
  };
}
