import type { FamiliarError } from '../../shared/errors';
import type { Policy } from '../../shared/policy';
import type { Result } from '../../shared/result';
import type { ApprovalBroker } from '../domain/approvals/broker';
import type { McpApprovals } from '../domain/mcp-servers/mcp-approvals';
import type { AuditLog } from '../platform/audit/audit-log';
import type { Logger } from '../platform/logging/logger';
import { createProvenanceTracker } from '../domain/policy/provenance';
import type { AnyTool } from '../tools/define-tool';
import type { ToolEnvironment } from '../tools/kit/tool-environment';
import { defaultToolLimits } from '../tools/kit/tool-limits';
import { admit } from './admit';
import { createAllowances } from './allowances';
import { approverFor, ask } from './ask';
import type { ApprovalMode } from './ask';
import type { CallSession } from './call-session';
import { internalError } from './call-errors';
import { decide } from './decide';
import { createHostAllowances, networkAccessFor } from './host-questions';
import { locate } from './locate';
import { createRateLimiter } from './rate-limiter';
import { record } from './record';
import type { PersonaChange } from './record';
import { run } from './run';
import type { CallHooks, ToolCallRequest, ToolDescriptor, ToolExecutor } from './tool-executor';

export interface ToolCallsOptions {
  readonly tools: readonly AnyTool[];
  /**
   * Tools that come and go (the user's MCP servers' tools while their servers are ready), read on
   * every list and call; they walk the same stages. `mcpApprovals` holds the user's answers about them.
   */
  readonly extraTools?: () => readonly AnyTool[];
  readonly mcpApprovals?: McpApprovals;
  /** Why an extra tool the model names is not there now (its server is not ready): a typed refusal. */
  readonly missingExtraTool?: (name: string) => FamiliarError | undefined;
  readonly policy: () => Policy;
  /** The memory switch as it applies to this conversation (persona-rules.ts: memoryOn). */
  readonly memoryOn: (conversationId: string) => boolean;
  /** Settings → Commands: confined commands that can reach no host run without asking (default: they ask). */
  readonly confinedOfflineWithoutAsking?: () => boolean;
  /**
   * Whether a language server is available for the open workspace (code_* tools are offered only
   * then). Absent: always. `refresh` is awaited before each turn's tool list.
   */
  readonly codeAvailability?: { current(): boolean; refresh(): Promise<unknown> };
  /** Whether some Agent Skill is loaded (the skill tool is offered only then), refreshed like the above. Absent: never. */
  readonly skillAvailability?: { current(): boolean; refresh(): Promise<unknown> };
  /** Whether a search service is configured (web_search is offered only then). Absent: never. */
  readonly searchAvailable?: () => boolean;
  /** What a tool may use for this call; built per call so it follows the open folder and the switch. */
  readonly environment: (conversationId: string) => Promise<ToolEnvironment> | ToolEnvironment;
  readonly broker: ApprovalBroker;
  readonly approvalMode: ApprovalMode;
  readonly audit: Pick<AuditLog, 'record'>;
  readonly limits?: { readonly callsPerMinute?: number; readonly timeoutMs?: number; readonly maxResultChars?: number };
  readonly logger?: Logger;
  readonly now?: () => number;
  readonly systemPrompt: (conversationId: string, tools: readonly ToolDescriptor[]) => Promise<string>;
  /** The SOUL.md section of the prompt as it would read with this text (for the approval dialog). */
  readonly personaPromptPreview?: (soulText: string) => string;
  readonly onPersonaChanged?: (change: PersonaChange) => Promise<void>;
}

export interface ToolCalls extends ToolExecutor {
  /** The tools registered right now for this conversation: exactly what the model is offered. */
  registered(conversationId: string): readonly AnyTool[];
}

/**
 * The one way a tool call happens, for the chat, MCP mode and anything else that runs a tool:
 *   admit → locate → decide → ask → run → record.
 * Each stage is a small function of the CallSession so far; a stage that refuses ends the call
 * with a typed error, and record runs whatever happened. Nothing here throws: an exception
 * anywhere becomes internal_error (call-errors.ts), so a tool can never end a turn.
 */
export function createToolCalls(options: ToolCallsOptions): ToolCalls {
  const now = options.now ?? Date.now;
  const callsPerMinute = options.limits?.callsPerMinute ?? defaultToolLimits.callsPerMinute;
  const limits = {
    timeoutMs: options.limits?.timeoutMs ?? defaultToolLimits.timeoutMs,
    maxResultChars: options.limits?.maxResultChars ?? defaultToolLimits.maxResultChars,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  };
  const limiter = createRateLimiter(callsPerMinute, now);
  const allowances = createAllowances();
  const hostAllowances = createHostAllowances();
  const provenance = createProvenanceTracker();

  const codeOn = () => options.codeAvailability?.current() ?? true;
  const registered = (conversationId: string) => [
    ...options.tools.filter(
      (tool) =>
        (tool.memoryOnly !== true || options.memoryOn(conversationId)) &&
        (tool.needsLanguageServer !== true || codeOn()) &&
        (tool.needsSkills !== true || options.skillAvailability?.current() === true) &&
        (tool.needsSearchService !== true || options.searchAvailable?.() === true),
    ),
    ...(options.extraTools?.() ?? []),
  ];
  const refreshList = async () => {
    await Promise.all([options.codeAvailability?.refresh(), options.skillAvailability?.refresh()]);
  };
  const describe = (conversationId: string): ToolDescriptor[] =>
    registered(conversationId).map((tool) => ({
      name: tool.name,
      description: tool.description,
      input: tool.input,
      ...(tool.jsonSchema === undefined ? {} : { jsonSchema: tool.jsonSchema }),
    }));

  async function walk(start: CallSession, advance: (session: CallSession) => void): Promise<Result<unknown>> {
    const approver = approverFor(options.approvalMode, options.broker, start.hooks?.approver);
    const admitted = admit(start, {
      registered,
      all: options.tools,
      limiter,
      callsPerMinute,
      ...(options.missingExtraTool === undefined ? {} : { missing: options.missingExtraTool }),
    });
    if (!admitted.ok) return admitted;
    advance(admitted.value);
    const located = await locate(admitted.value, await options.environment(start.request.conversationId));
    advance(located);
    const decided = decide(located, {
      policy: options.policy(),
      memoryOn: options.memoryOn(start.request.conversationId),
      allowances,
      sourcesReadThisTurn: provenance.sources(start.request.conversationId),
      confinedOfflineWithoutAsking: options.confinedOfflineWithoutAsking?.() === true,
      hostsAllowedInConversation: hostAllowances.any(start.request.conversationId),
      ...(options.mcpApprovals === undefined ? {} : { mcpApprovals: options.mcpApprovals }),
    });
    if (!decided.ok) return decided;
    advance(decided.value);
    const approved = await ask(decided.value, {
      mode: options.approvalMode,
      broker: options.broker,
      ...(start.hooks?.approver === undefined ? {} : { approver: start.hooks.approver }),
      ...(start.hooks?.unattended === true ? { unattended: true } : {}),
      allowances,
      ...(options.mcpApprovals === undefined ? {} : { mcpApprovals: options.mcpApprovals }),
      limits,
      ...(options.personaPromptPreview === undefined ? {} : { promptPreview: options.personaPromptPreview }),
    });
    if (!approved.ok) return approved;
    // The hosts a command reaches for are asked about as the call was: approve-all approves calls,
    // never the network, so without a person to ask only the allowed hosts are reached.
    const network = networkAccessFor({
      request: start.request,
      env: approved.value.ctx.env,
      allowances: hostAllowances,
      approver,
      signal: start.signal,
    });
    const running = { ...approved.value, ctx: { ...approved.value.ctx, network } };
    advance(running);
    return run(running, limits);
  }

  async function call(request: ToolCallRequest, signal: AbortSignal, hooks?: CallHooks): Promise<Result<unknown>> {
    let session: CallSession = { request, signal, startedAt: now(), ...(hooks === undefined ? {} : { hooks }) };
    const result = await walk(session, (next) => (session = next)).catch((error: unknown) => {
      options.logger?.error(`tool call ${request.name} failed`, error);
      return internalError(request.name, error);
    });
    return record(session, result, {
      audit: options.audit,
      provenance,
      now,
      ...(options.onPersonaChanged === undefined ? {} : { onPersonaChanged: options.onPersonaChanged }),
    });
  }

  return {
    registered,
    list: describe,
    refreshList,
    systemPrompt: async (conversationId) => {
      // The turn's tool list (read right after the prompt) follows the workspace's files.
      await refreshList();
      return options.systemPrompt(conversationId, describe(conversationId));
    },
    execute: call,
    beginTurn: (conversationId, sources = []) => {
      provenance.beginTurn(conversationId);
      provenance.noteSources(conversationId, sources);
    },
    cancelPending: (conversationId, reason) => options.broker.cancelConversation(conversationId, reason),
  };
}
