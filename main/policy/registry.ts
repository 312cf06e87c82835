import type { Policy } from '../../shared/policy';
import { err } from '../../shared/result';
import type { Result } from '../../shared/result';
import type { ToolCallRequest, ToolDescriptor, ToolExecutor } from '../agent/tool-executor';
import type { ApprovalBroker } from '../approvals/broker';
import { personaFileOf } from '../persona/persona-files';
import type { PersonaFileName } from '../persona/persona-files';
import type { AnyTool, Approval, ToolAccess, ToolContext } from '../tools/define-tool';
import type { ToolEnvironment } from '../tools/tool-environment';
import { allowanceKey, checkAccesses } from './check-accesses';
import { isMemoryPath } from './decide';
import { createProvenanceTracker, provenanceWarning } from './provenance';
import { requestApproval } from './request-approval';

/** 'interactive' asks the user; MCP mode refuses ('refuse') or trusts its caller ('approve-all'). */
export type ApprovalMode = 'interactive' | 'refuse' | 'approve-all';

export interface RefusedCall {
  readonly conversationId: string;
  readonly tool: string;
  readonly paths: readonly string[];
  readonly code: 'unknown_tool' | 'invalid_arguments' | 'permission_denied' | 'user_rejected' | 'approval_required';
}

export interface PersonaChange {
  readonly file: PersonaFileName;
  readonly conversationId: string;
  readonly reason: string;
}

export interface RegistryOptions {
  readonly tools: readonly AnyTool[];
  readonly policy: () => Policy;
  /** The memory switch as it applies to this conversation (an incognito one has it off). */
  readonly memoryEnabled: (conversationId: string) => boolean;
  /** What a tool may use for this call; built per call so it follows the open folder and the switch. */
  readonly environment: (conversationId: string) => Promise<ToolEnvironment> | ToolEnvironment;
  /** The tool runner: rate limit, timeout, audit, then the tool itself. */
  readonly run: (tool: AnyTool, args: unknown, ctx: ToolContext, approval?: Approval) => Promise<Result<unknown>>;
  readonly broker: ApprovalBroker;
  readonly approvalMode: ApprovalMode;
  readonly recordRefusal: (call: RefusedCall) => void;
  readonly systemPrompt: (conversationId: string, tools: readonly ToolDescriptor[]) => Promise<string>;
  /** The SOUL.md section of the prompt as it would read with this text (for the approval dialog). */
  readonly personaPromptPreview?: (soulText: string) => string;
  /** After a successful call that changed a persona file (history keeps the version). */
  readonly onPersonaChanged?: (change: PersonaChange) => Promise<void>;
}

export interface ToolRegistry extends ToolExecutor {
  /** The tools registered right now for this conversation: exactly what the model is offered. */
  registered(conversationId: string): readonly AnyTool[];
}

/**
 * The policy decides on where a path really leads too: a symlink 'notes.md' -> SOUL.md is checked
 * as SOUL.md (the stricter rule wins, since both names stay in the list).
 */
async function withRealNames(env: ToolEnvironment, accesses: readonly ToolAccess[]): Promise<ToolAccess[]> {
  const extra = await Promise.all(
    accesses.map(async (access) => {
      const resolved = await env.sandbox.resolve(access.path, 'read');
      if (!resolved.ok) return [];
      const real = resolved.value.realRel;
      return real === resolved.value.relPath ? [] : [{ operation: access.operation, path: real }];
    }),
  );
  return [...accesses, ...extra.flat()];
}

const changesFile = (operation: string) => operation !== 'read' && operation !== 'run';

/**
 * The one path from a model's tool call to the disk: is the tool registered (memory switch), are
 * its arguments valid, what does the policy say about each path, does the user approve — and only
 * then the runner. Every refusal is a typed value the model can read, and is audited.
 */
export function createToolRegistry(options: RegistryOptions): ToolRegistry {
  // "Allow this file for the rest of the conversation": conversation → normalized paths.
  const allowances = new Map<string, Set<string>>();
  const provenance = createProvenanceTracker();

  const registered = (conversationId: string) =>
    options.tools.filter((tool) => tool.memoryOnly !== true || options.memoryEnabled(conversationId));
  const describe = (conversationId: string): ToolDescriptor[] =>
    registered(conversationId).map((tool) => ({ name: tool.name, description: tool.description, input: tool.input }));

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
      const message = exists
        ? `The tool ${call.name} is not available while memory is switched off.`
        : `There is no tool named ${call.name}. Use one of the tools you were given.`;
      return refuse(call, [], 'unknown_tool', message);
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
    const env = await options.environment(call.conversationId);
    const accesses = await withRealNames(env, tool.access(parsed.data));
    const paths = [...new Set(accesses.map((access) => access.path))];
    const check = checkAccesses(
      options.policy(),
      accesses,
      options.memoryEnabled(call.conversationId),
      (access) => allowances.get(call.conversationId)?.has(allowanceKey(env.workspaceRoot, access)) === true,
    );
    if (check.kind === 'refused') return refuse(call, paths, 'permission_denied', check.message, check.details);

    const personaTargets = [
      ...new Set(
        accesses
          .filter((access) => changesFile(access.operation))
          .flatMap((access) => personaFileOf(access.path) ?? []),
      ),
    ];
    // Dated notes (memory/**) are memory too: a planted instruction saved there would come back
    // through memory_search in later conversations, so they are guarded like the three files.
    const guarded =
      personaTargets.length > 0 ||
      accesses.some((access) => changesFile(access.operation) && isMemoryPath(options.policy(), access.path));
    const sources = guarded ? provenance.sources(call.conversationId) : [];
    const warnings = sources.length > 0 ? [provenanceWarning(sources)] : [];
    // A memory change is normally free; one that may be steered by content just read is not.
    const needsApproval = check.needsApproval || warnings.length > 0;

    const ctx: ToolContext = {
      conversationId: call.conversationId,
      signal,
      env,
    };
    let approval: Approval | undefined;
    let reason = `${tool.name} on ${paths.join(', ')}`;
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
        persona: personaTargets.includes('SOUL.md'),
        broker: options.broker,
        warnings,
        ...(options.personaPromptPreview === undefined ? {} : { promptPreview: options.personaPromptPreview }),
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
      reason = answer.value.summary;
      if (answer.value.allowForConversation) {
        const set = allowances.get(call.conversationId) ?? new Set<string>();
        for (const access of accesses) {
          if (personaFileOf(access.path) !== 'SOUL.md') set.add(allowanceKey(env.workspaceRoot, access));
        }
        allowances.set(call.conversationId, set);
      }
    }

    const result = await options.run(tool, parsed.data, ctx, approval);
    if (!result.ok) return result;
    if (tool.returnsContent === true) provenance.noteContent(call.conversationId, tool.name, accesses);
    for (const file of personaTargets)
      await options.onPersonaChanged?.({ file, conversationId: call.conversationId, reason });
    if (approval?.editedContent !== undefined) {
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
    list: describe,
    systemPrompt: (conversationId) => options.systemPrompt(conversationId, describe(conversationId)),
    execute,
    beginTurn: (conversationId) => provenance.beginTurn(conversationId),
    cancelPending: (conversationId, reason) => options.broker.cancelConversation(conversationId, reason),
  };
}
