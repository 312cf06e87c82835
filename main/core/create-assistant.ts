import { approvalResolvedSchema } from '../../shared/ipc/approvals';
import type { ApprovalRequest } from '../../shared/ipc/approvals';
import { ok } from '../../shared/result';
import { createApprovalBroker } from '../domain/approvals/broker';
import type { ApprovalBroker, ApprovalOutcome, ResolvedKind } from '../domain/approvals/broker';
import type { Handlers } from '../platform/ipc/dispatcher';
import type { EventHub } from '../platform/ipc/event-hub';
import { createHistoryHandlers } from '../domain/persona/history-handlers';
import type { HistoryHandlers } from '../domain/persona/history-handlers';
import { openHistoryStore } from '../domain/persona/history-store';
import type { PersonaFolder } from '../domain/persona/persona-folder';
import { ensurePersonaFiles } from '../domain/persona/persona-files';
import { createPersonaHistory } from '../domain/persona/persona-history';
import type { PersonaHistory } from '../domain/persona/persona-history';
import { personaSection } from '../domain/persona/system-prompt';
import { createPersonaService } from '../domain/persona/persona-service';
import type { PersonaService } from '../domain/persona/persona-service';
import { openPolicyStore } from '../domain/policy/policy-store';
import type { PolicyStore } from '../domain/policy/policy-store';
import { concealedWhileMemoryOff, memoryOn } from '../domain/policy/persona-rules';
import type { AuditLog } from '../platform/audit/audit-log';
import type { ApprovalMode } from '../tool-calls/ask';
import { createToolCalls } from '../tool-calls/tool-calls';
import type { McpApprovals } from '../domain/mcp-servers/mcp-approvals';
import type { FamiliarError } from '../../shared/errors';
import type { ToolCalls, ToolCallsOptions } from '../tool-calls/tool-calls';
import { describeTools } from '../tool-calls/tool-info';
import type { FamiliarPaths } from '../platform/storage/paths';
import type { SettingsStore } from '../platform/storage/settings-store';
import type { AnyTool } from '../tools/define-tool';
import type { ToolEnvironment } from '../tools/kit/tool-environment';
import type { Logger } from '../platform/logging/logger';
import type { CodeAvailability } from '../domain/lsp/code-availability';

export interface AssistantOptions {
  readonly paths: FamiliarPaths;
  readonly settings: SettingsStore;
  readonly events: EventHub;
  readonly logger: Logger;
  readonly workspacePath: () => string;
  /** A conversation that works in a folder of its own (a scheduled task's); undefined: the open folder. */
  readonly workspaceFor?: (conversationId: string) => string | undefined;
  /** The persona folder through the sandbox (PersonaFolder): the prompt, history and the user's edits. */
  readonly personaFolder: PersonaFolder;
  readonly tools: readonly AnyTool[];
  /** The user's MCP servers' tools and the answers about them (core/mcp-host.ts). */
  readonly mcp?: {
    readonly tools: () => readonly AnyTool[];
    readonly approvals: McpApprovals;
    readonly missing: (name: string) => FamiliarError | undefined;
    /** Told when a server became ready, failed or changed its tools. */
    readonly subscribe: (listener: () => void) => void;
  };
  /** Builds what a tool may use for one call, from the basics the assistant knows. */
  readonly environment: (basics: EnvironmentBasics, conversationId: string) => Promise<ToolEnvironment>;
  readonly audit: AuditLog;
  readonly limits?: ToolCallsOptions['limits'];
  readonly approvalMode: ApprovalMode;
  readonly recordApproval: (request: ApprovalRequest, outcome: 'requested' | ResolvedKind, reason?: string) => void;
  /** Whether a language server is available for the workspace (code_* tools offered only then). */
  readonly codeAvailability?: CodeAvailability;
  /**
   * Whether web_search's service is configured (the tool is offered only then); `subscribe` is told
   * when a key was saved or deleted (settings changes are watched here).
   */
  readonly webSearch?: { readonly available: () => boolean; readonly subscribe: (listener: () => void) => void };
  /** Incognito conversations run with memory off whatever the switch says. */
  readonly isIncognito?: (conversationId: string) => boolean;
  /** Agent Skills: whether one is loaded (the skill tool), and their names and descriptions for the prompt. */
  readonly skills?: {
    readonly availability: NonNullable<ToolCallsOptions['skillAvailability']>;
    loaded(): Promise<readonly { readonly name: string; readonly description: string }[]>;
  };
}

/** What the assistant itself knows about a call's surroundings; the rest comes from the tool services. */
export type EnvironmentBasics = Pick<ToolEnvironment, 'workspaceRoot' | 'personaDir' | 'isConcealed'>;

export type AssistantHandlers = HistoryHandlers &
  Pick<
    Handlers,
    | 'tools.list'
    | 'policy.get'
    | 'policy.update'
    | 'policy.reset'
    | 'persona.info'
    | 'approvals.list'
    | 'approvals.answer'
  >;

export interface Assistant {
  /** The tool-call pipeline: every tool call, from the chat or MCP mode, goes through it. */
  readonly toolCalls: ToolCalls;
  readonly broker: ApprovalBroker;
  readonly policy: PolicyStore;
  readonly persona: PersonaService;
  readonly history: PersonaHistory;
  readonly handlers: AssistantHandlers;
}

/** Wires the persona files, the policy, the approval broker and the tool-call pipeline together. */
export async function createAssistant(options: AssistantOptions): Promise<Assistant> {
  const personaDir = options.paths.defaultWorkspace;
  const { personaFolder } = options;
  await ensurePersonaFiles(personaFolder);
  const policy = await openPolicyStore(options.paths.policyFile, options.logger);
  const promptCaps = () => options.settings.get().prompt;
  const persona = createPersonaService(personaFolder, promptCaps);
  const historyStore = await openHistoryStore(options.paths.history);
  const history = createPersonaHistory(personaFolder, historyStore, (file) =>
    options.events.emit('history.changed', { file }),
  );
  const firstRun = (await historyStore.list('SOUL.md')).length === 0;
  // Edits made while Familiar was closed become versions too, so a revert can always go back to them.
  await history.snapshot(firstRun ? 'Initial version' : 'Changed outside Familiar');
  const memoryEnabled = () => options.settings.get().memory.enabled;
  // What the switch means for one conversation: an incognito one never gets memory.
  const workspaceOf = (conversationId: string) => options.workspaceFor?.(conversationId) ?? options.workspacePath();
  const memoryFor = (conversationId: string) =>
    memoryOn(memoryEnabled(), options.isIncognito?.(conversationId) === true);

  const resolvedEvent = (
    request: { id: string; conversationId: string },
    outcome: ApprovalOutcome,
    kind: ResolvedKind,
  ) =>
    approvalResolvedSchema.parse({
      id: request.id,
      conversationId: request.conversationId,
      outcome: kind,
      ...(outcome.approved ? {} : { reason: outcome.reason }),
    });
  const broker = createApprovalBroker({
    onRequested: (request) => {
      options.recordApproval(request, 'requested');
      options.events.emit('approvals.requested', request);
    },
    onResolved: (request, outcome, kind) => {
      options.recordApproval(request, kind, outcome.approved ? undefined : outcome.reason);
      options.events.emit('approvals.resolved', resolvedEvent(request, outcome, kind));
    },
  });

  const toolCalls = createToolCalls({
    tools: options.tools,
    ...(options.mcp === undefined
      ? {}
      : { extraTools: options.mcp.tools, mcpApprovals: options.mcp.approvals, missingExtraTool: options.mcp.missing }),
    policy: () => policy.get(),
    memoryOn: memoryFor,
    confinedOfflineWithoutAsking: () => options.settings.get().commands.confinedOfflineWithoutAsking,
    ...(options.codeAvailability === undefined ? {} : { codeAvailability: options.codeAvailability }),
    ...(options.skills === undefined ? {} : { skillAvailability: options.skills.availability }),
    ...(options.webSearch === undefined ? {} : { searchAvailable: options.webSearch.available }),
    environment: (conversationId) =>
      options.environment(
        {
          workspaceRoot: workspaceOf(conversationId),
          personaDir,
          isConcealed: (path) => concealedWhileMemoryOff(policy.get(), memoryFor(conversationId), path),
        },
        conversationId,
      ),
    broker,
    approvalMode: options.approvalMode,
    audit: options.audit,
    logger: options.logger,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    personaPromptPreview: (soulText) => personaSection('SOUL.md', soulText, promptCaps()),
    onPersonaChanged: (change) => history.recordAssistantChange(change.file, change.conversationId, change.reason),
    systemPrompt: async (conversationId, tools) =>
      (
        await persona.systemPrompt({
          memoryEnabled: memoryFor(conversationId),
          tools,
          workspacePath: workspaceOf(conversationId),
          // Only when the skill tool is offered: a listed skill must be loadable.
          ...(options.skills !== undefined && tools.some((tool) => tool.name === 'skill')
            ? { skills: await options.skills.loaded() }
            : {}),
        })
      ).text,
  });

  // Conversation-independent view for the UI: the global memory switch.
  const toolList = () => ({
    memoryEnabled: memoryEnabled(),
    tools: describeTools(toolCalls.registered(''), policy.get(), memoryEnabled()),
  });
  options.settings.subscribe((next, previous) => {
    if (next.memory.enabled !== previous.memory.enabled) options.events.emit('tools.changed', toolList());
    // A search service chosen or dropped brings or takes away web_search.
    if (JSON.stringify(next.web.search) !== JSON.stringify(previous.web.search)) {
      options.events.emit('tools.changed', toolList());
    }
    // A skill switched on or off may bring or take away the skill tool.
    if (JSON.stringify(next.skills) !== JSON.stringify(previous.skills)) {
      void options.skills?.availability.refresh().then(() => options.events.emit('tools.changed', toolList()));
    }
  });
  policy.subscribe(() => options.events.emit('tools.changed', toolList()));
  // A server became ready, failed or changed its tools: the tools panel follows.
  options.mcp?.subscribe(() => options.events.emit('tools.changed', toolList()));
  options.codeAvailability?.subscribe(() => options.events.emit('tools.changed', toolList()));
  options.webSearch?.subscribe(() => options.events.emit('tools.changed', toolList()));
  const policyState = () => ({ policy: policy.get(), loadError: policy.loadError() });

  const handlers: AssistantHandlers = {
    ...createHistoryHandlers(personaFolder, history, memoryEnabled),
    'tools.list': () => ok(toolList()),
    'policy.get': () => ok(policyState()),
    'policy.update': async ({ policy: candidate }) => {
      const result = await policy.update(candidate);
      return result.ok ? ok(policyState()) : result;
    },
    'policy.reset': async () => {
      await policy.reset();
      return ok(policyState());
    },
    'persona.info': async () => ok(await persona.info(memoryEnabled())),
    'approvals.list': () => ok({ pending: [...broker.pending()] }),
    'approvals.answer': (answer) => {
      const result = broker.answer(answer);
      if (!result.ok) return result;
      const { request, kind, reason } = result.value;
      return kind === 'rejected'
        ? ok({
            id: request.id,
            conversationId: request.conversationId,
            outcome: kind,
            ...(reason === undefined ? {} : { reason }),
          })
        : ok({ id: request.id, conversationId: request.conversationId, outcome: kind });
    },
  };
  return { toolCalls, broker, policy, persona, history, handlers };
}
