import type { AppInfo } from '../../shared/ipc/app';
import { createChatHandlers } from '../agent/chat-handlers';
import { searchAhead } from './search-ahead';
import { ripgrepAhead } from '../tools/search/search-ripgrep-walk';
import { createChatService } from '../agent/chat-service';
import type { ChatService } from '../agent/chat-service';
import type { ToolExecutor } from '../tool-calls/tool-executor';
import { createConversationHandlers } from '../domain/conversations/conversation-handlers';
import { openChatImageStore } from '../domain/conversations/chat-images';
import { openConversationStore } from '../domain/conversations/conversation-store';
import type { ConversationStore } from '../domain/conversations/conversation-store';
import { createDispatcher } from '../platform/ipc/dispatcher';
import type { Dispatch, Handlers } from '../platform/ipc/dispatcher';
import { createEventHub } from '../platform/ipc/event-hub';
import type { EventHub } from '../platform/ipc/event-hub';
import { ensureFolder } from '../platform/storage/folders';
import { familiarPaths } from '../platform/storage/paths';
import { openSettingsStore } from '../platform/storage/settings-store';
import type { SettingsStore } from '../platform/storage/settings-store';
import type { FamiliarPaths } from '../platform/storage/paths';
import { createProviderHandlers } from '../domain/providers/provider-handlers';
import { routeAiSdkWarnings } from '../domain/providers/sdk-warnings';
import type { SecretCipher } from '../platform/secrets/secret-cipher';
import { openSecretStore } from '../platform/secrets/secret-store';
import type { SecretStore } from '../platform/secrets/secret-store';
import { createPersonaFolder } from '../domain/persona/persona-folder';
import { checkChosenFolder, realFolder } from '../platform/disk/chosen-folder';
import { createChooseFolderHandler } from '../domain/workspace/choose-folder';
import { createWorkspaceService } from '../domain/workspace/workspace-service';
import type { WorkspaceService } from '../domain/workspace/workspace-service';
import { createAuditLog } from '../platform/audit/audit-log';
import { chooseDefaultWorkspace } from '../platform/storage/default-workspace';
import { createLanguageModel } from '../domain/providers/language-model';
import type { ProviderFetch } from '../domain/providers/language-model';
import { assistantTools } from '../tools';
import { createToolEnvironment } from '../tools/kit/tool-services';
import type { FsWorkerPool } from '../platform/search-engines/fs-worker-pool';
import type { ToolLimits } from '../tools/kit/tool-limits';
import { createTransferService } from '../domain/transfers/transfer-service';
import { concealedWhileMemoryOff } from '../domain/policy/persona-rules';
import { createAppHandlers } from './app-handlers';
import { approvalRecorder } from './approval-record';
import { createScheduling } from './scheduling';
import { settingsToolServices } from './settings-tool-services';
import { describeConfinement } from './confinement-info';
import { createAssistant } from './create-assistant';
import type { Assistant } from './create-assistant';
import type { ApprovalMode } from '../tool-calls/ask';
import type { Logger } from '../platform/logging/logger';
import { createSettingsHandlers } from './settings-handlers';
import { hostUserMcpServers } from './user-mcp-host';
import type { McpHost } from './mcp-host';
import { keepMcpSecretsApart } from '../domain/mcp-servers/mcp-secrets';
import { WORKSPACE_MCP_FILE } from '../domain/mcp-servers/mcp-workspace-offer';
import { resolveMcpAttachments } from '../domain/mcp-servers/mcp-attachments';
import type { EventPayload } from '../../shared/ipc/contract';
import { createCodeAvailability } from '../domain/lsp/code-availability';
import { createLanguageServerHandlers } from '../domain/lsp/language-server-handlers';
import { createSkillHandlers } from '../domain/skills/skill-shelf';
import type { Scheduler, SchedulerClock } from '../domain/schedules/scheduler';
import { configuredSearchService, createWebSearchHandlers } from './web-search-handlers';
import { createRunScope, unattendedWhere } from './schedule-runs';

export interface CoreOptions {
  readonly home: string;
  /**
   * Start the search threads with the core (ToolServicesOptions.warmSearchThreads); default true.
   * Test cores do not: under vitest each thread compiles the worker's source first.
   */
  readonly warmSearchThreads?: boolean;
  /**
   * Collect the heap once the start is over (ToolServicesOptions.collectAfterStart): the entries
   * (command-line.ts, start-desktop.ts) do; default false, so tests' and benches' cores do not.
   */
  readonly collectAfterStart?: boolean;
  /** The file threads' pool an entry started before the app's modules loaded (ToolServicesOptions.workers). */
  readonly workers?: FsWorkerPool;
  /** The folder the assistant works on; defaults to the workspace inside the Familiar home. */
  readonly workspace?: string | undefined;
  /**
   * A default workspace the user can see (the desktop app: ~/Familiar), created on first run; it
   * also holds the persona files. Without it the default workspace lives in the home, as in tests.
   */
  readonly visibleDefaultWorkspace?: string | undefined;
  /** Provider HTTP (turns, the connection test, Ollama detection); default Node's fetch. The desktop passes net.fetch. */
  readonly fetch?: ProviderFetch | undefined;
  readonly mode: AppInfo['mode'];
  readonly version: string;
  readonly logger: Logger;
  /** How calls the policy asks about are answered: the user (default), or MCP mode's refuse / approve-all. */
  readonly approvalMode?: ApprovalMode;
  /** Encrypts API keys at rest (Electron safeStorage in the desktop app); absent: a 0600 file. */
  readonly secretCipher?: SecretCipher | undefined;
  /**
   * The tools the model may call and the system prompt (the tool-call pipeline, main/tool-calls).
   * Absent: the no-tools executor (a plain chat with a one-line persona).
   */
  readonly toolExecutor?: ToolExecutor | undefined;
  /** Desktop: the native Save dialog for file_download (null when cancelled); browser mode downloads in the page. */
  readonly chooseSavePath?: ((suggestedName: string) => Promise<string | null>) | undefined;
  /** The desktop app's native folder dialog (workspace.chooseFolder); null when cancelled. */
  readonly chooseFolder?: (() => Promise<string | null>) | undefined;
  /** Tool limits other than the defaults (automation, the race suite and benchmarks lift the rate limit). */
  readonly toolLimits?: Partial<ToolLimits> | undefined;
  /** The user's Agent Skills folder; default ~/.agents/skills (tests and --skills-dir give another). */
  readonly userSkillsDir?: string | undefined;
  /** The packaged desktop app's resources folder (process.resourcesPath): its bundled ripgrep. Absent: rg on PATH. */
  readonly resourcesDir?: string | undefined;
  /** The heartbeat's and the tasks' clock; tests move an injected one instead of waiting. */
  readonly scheduleClock?: SchedulerClock | undefined;
}

/** Everything main does, with no Electron in sight: both adapters and the tests drive this. */
export interface Core {
  readonly dispatch: Dispatch;
  readonly events: EventHub;
  readonly paths: FamiliarPaths;
  readonly settings: SettingsStore;
  readonly assistant: Assistant;
  readonly secrets: SecretStore;
  readonly conversations: ConversationStore;
  readonly chat: ChatService;
  /** The heartbeat and the scheduled tasks; they run only when people answer approvals (not MCP mode). */
  readonly scheduler: Scheduler;
  /** The user's MCP servers (issue 29). */
  readonly mcpHost: McpHost;
  /** The open folder; `open` is the hook for the desktop's native folder dialog. */
  readonly workspace: Pick<WorkspaceService, 'current' | 'open'>;
  /**
   * Makes ahead what a search coming soon needs (search-ahead.ts): ripgrep's sandbox, once no call
   * runs. familiar-mcp asks once a client's handshake is done (an agent's first call follows).
   */
  readySearch(): void;
  dispose(reason: string): Promise<void>;
}

/** The chosen folder, symlinks resolved; the default workspace when it is gone. */
async function openWorkspace(chosen: string | null | undefined, paths: FamiliarPaths, logger: Logger): Promise<string> {
  if (chosen !== null && chosen !== undefined) {
    const checked = await checkChosenFolder(chosen, { home: paths.home, personaDir: paths.defaultWorkspace });
    if (checked.ok) return checked.value;
    logger.warn(`workspace ${chosen} cannot be opened (${checked.error.message}); using the default workspace`);
  }
  return realFolder(paths.defaultWorkspace);
}

export async function createCore(options: CoreOptions): Promise<Core> {
  const paths = familiarPaths(
    options.home,
    options.visibleDefaultWorkspace === undefined
      ? undefined
      : await chooseDefaultWorkspace(options.home, options.visibleDefaultWorkspace),
  );
  await ensureFolder(paths.home, 0o700);
  // The persona folder is the user's folder of files, opened in their tools: the umask decides, not 0700.
  await ensureFolder(paths.defaultWorkspace, 0o777);
  const events = createEventHub((error) => options.logger.error('event listener failed', error));
  const secrets = await openSecretStore(paths.secretsFile, options.secretCipher, options.logger);
  // MCP servers' environment and header values live in the secret store, never in settings.json.
  const mcpSecrets = await keepMcpSecretsApart(await openSettingsStore(paths.settingsFile, options.logger), secrets);
  const settings = mcpSecrets.settings;
  settings.subscribe((next) => events.emit('settings.changed', next));
  routeAiSdkWarnings(options.logger);
  // A web search key saved or deleted: web_search may come or go (a settings change says so itself).
  const searchKeyListeners = new Set<() => void>();
  const transfers = createTransferService({
    events,
    // Uploads land in the open workspace, with the same sandbox (and memory concealment) as the tools.
    sandbox: async () => (await toolEnvironmentNow()).sandbox,
    uploadLimits: () => ({
      maxBytes: settings.get().transfers.maxUploadMB * 1024 * 1024,
      allowNonText: settings.get().transfers.allowNonText,
    }),
    chooseSavePath: options.chooseSavePath,
    interactive: (options.approvalMode ?? 'interactive') === 'interactive',
  });
  /** A tool call's environment as one made now would be: the open workspace, the memory switch. */
  const toolEnvironmentNow = () =>
    createToolEnvironment({
      services: toolServices,
      workspaceRoot: workspacePath(),
      isConcealed: (path) => concealedWhileMemoryOff(assistant.policy.get(), settings.get().memory.enabled, path),
    });
  const toolServices = settingsToolServices({
    paths,
    settings,
    secrets,
    events,
    transfers,
    logger: options.logger,
    resourcesDir: options.resourcesDir,
    warmSearchThreads: options.warmSearchThreads,
    collectAfterStart: options.collectAfterStart,
    workers: options.workers,
    fetch: options.fetch,
    userSkillsDir: options.userSkillsDir,
    toolLimits: options.toolLimits,
  });
  const workspace = await createWorkspaceService({
    root: await openWorkspace(options.workspace ?? settings.get().workspace.path, paths, options.logger),
    personaDir: paths.defaultWorkspace,
    home: paths.home,
    settings,
    anchors: toolServices.roots,
    events,
    logger: options.logger,
  });
  const workspacePath = () => workspace.current();
  const searchReady = searchAhead({
    services: toolServices,
    environment: toolEnvironmentNow,
    logger: options.logger,
    ripgrepAhead,
  });
  const workspaceSandbox = async () => (await toolEnvironmentNow()).sandbox;
  const codeAvailability = createCodeAvailability({
    servers: () => toolServices.code.lsp.servers,
    sandbox: workspaceSandbox,
    idle: (hurry) => toolServices.foreground.idle(hurry),
  });
  const recheckCode = () => {
    codeAvailability.invalidate();
    void codeAvailability.refresh({ background: true });
  };
  // Language servers belong to one folder: another folder opened stops them (they restart lazily).
  events.subscribe((name, payload) => {
    if (name === 'workspace.opened') {
      searchReady.opened();
      void toolServices.code.lsp.switchWorkspace(undefined);
      void mcpHost.workspaceChanged();
      recheckCode();
    }
    if (name === 'workspace.changed') {
      const { added, changed, removed } = payload as Partial<EventPayload<'workspace.changed'>>;
      codeAvailability.filesAdded((added ?? []).map((entry) => entry.path));
      // The workspace's .mcp.json changed while open: its servers stop until it is allowed again.
      const touched = [...(added ?? []), ...(changed ?? [])].map((entry) => entry.path).concat(removed ?? []);
      if (touched.includes(WORKSPACE_MCP_FILE)) void mcpHost.refreshOffer();
      // The watcher saw files change (another program, or a tool): search_in_code's index refreshes
      // soon; queries meanwhile check every file's size and mtime themselves.
      toolServices.ngramIndexes.noteChanged();
    }
  });
  settings.subscribe((next, previous) => {
    if (JSON.stringify(next.code.servers) === JSON.stringify(previous.code.servers)) return;
    // A server edited in settings: the running ones stop and start again on next use, with the new catalog.
    void toolServices.code.lsp.stopAll();
    recheckCode();
  });
  // Whether an Agent Skill is loaded (the skill tool is offered only then): looked at again per turn.
  const skillAvailability = {
    current: () => toolServices.skills.current(),
    refresh: async () => toolServices.skills.refresh(await workspaceSandbox()),
  };
  const conversations = await openConversationStore({ conversations: paths.conversations, trash: paths.trash });
  conversations.subscribe((change) => events.emit('conversations.changed', change));
  const chatImages = openChatImageStore(paths.chatImages);

  const audit = createAuditLog({ dir: paths.audit, logger: options.logger });
  const personaFolder = createPersonaFolder(toolServices.roots, paths.defaultWorkspace, paths.home);
  // The conversations scheduled runs are going in: a task's own folder, refusing instead of asking.
  const runScope = createRunScope();
  const mcpHost = hostUserMcpServers({
    paths,
    settings,
    secrets,
    reveal: mcpSecrets.reveal,
    events,
    logger: options.logger,
    version: options.version,
    fetch: options.fetch,
    interactive: (options.approvalMode ?? 'interactive') === 'interactive',
    toolEnvironmentNow,
    workspacePath,
    workspaceSandbox,
    // The broker is made with the assistant below.
    ask: (input, signal) => assistant.broker.request(input, signal),
  });
  const assistant = await createAssistant({
    paths,
    settings,
    events,
    logger: options.logger,
    workspacePath,
    workspaceFor: (conversationId) => runScope.workspaces.get(conversationId),
    personaFolder,
    tools: assistantTools,
    mcp: {
      tools: () => mcpHost.tools(),
      approvals: mcpHost.approvals,
      missing: (name) => mcpHost.missing(name),
      subscribe: (listener) => mcpHost.subscribe(listener),
    },
    environment: (basics) => createToolEnvironment({ services: toolServices, ...basics }),
    audit,
    limits: toolServices.limits,
    approvalMode: options.approvalMode ?? 'interactive',
    isIncognito: (conversationId) => conversations.isIncognito(conversationId),
    codeAvailability,
    webSearch: {
      available: () => configuredSearchService(settings, secrets) !== undefined,
      subscribe: (listener) => void searchKeyListeners.add(listener),
    },
    skills: {
      availability: skillAvailability,
      loaded: async () => await toolServices.skills.loaded(await workspaceSandbox()),
    },
    recordApproval: approvalRecorder({ conversations, audit, logger: options.logger }),
  });
  const chat = createChatService({
    conversations,
    images: chatImages,
    provider: () => settings.get().provider,
    secrets,
    ...(options.fetch === undefined
      ? {}
      : { createModel: (provider, apiKey) => createLanguageModel(provider, apiKey, options.fetch) }),
    executor: unattendedWhere(options.toolExecutor ?? assistant.toolCalls, (id) => runScope.unattended.has(id)),
    emit: (event) => events.emit('chat.event', event),
    logger: options.logger,
    mcpAttachments: (requests, pick) => resolveMcpAttachments(mcpHost.manager, requests, pick),
  });
  const scheduling = await createScheduling({
    paths,
    settings,
    events,
    conversations,
    chat,
    runScope,
    personaFolder,
    logger: options.logger,
    clock: options.scheduleClock,
  });
  const { scheduler } = scheduling;
  const handlers: Handlers = {
    ...createAppHandlers(
      () => ({
        name: 'Familiar',
        version: options.version,
        mode: options.mode,
        platform: process.platform,
        workspacePath: workspacePath(),
        homePath: paths.home,
      }),
      async () =>
        describeConfinement(
          await toolEnvironmentNow(),
          settings.get().commands.readableInHome,
          toolServices.searchEngine,
        ),
    ),
    ...createSettingsHandlers(settings),
    ...assistant.handlers,
    ...createConversationHandlers(conversations, chat, chatImages),
    ...createChatHandlers(chat),
    ...createProviderHandlers(settings, secrets, options.fetch),
    ...workspace.handlers,
    ...createChooseFolderHandler((path) => workspace.open(path), options.chooseFolder),
    ...transfers.handlers,
    ...createLanguageServerHandlers(toolServices.code.lsp, workspaceSandbox),
    ...createSkillHandlers(toolServices.skills, workspaceSandbox),
    ...scheduling.handlers,
    ...mcpHost.handlers,
    ...createWebSearchHandlers(settings, secrets, () => {
      for (const listener of searchKeyListeners) listener();
    }),
  };
  // The first answer while the rest starts: a turn or an MCP client's list awaits it anyway.
  void codeAvailability.refresh({ background: true });
  searchReady.opened();
  void skillAvailability.refresh();
  const dispatch = createDispatcher(handlers, {
    logError: (message, error) => options.logger.error(message, error),
  });
  // Tasks and the heartbeat run where a person can answer what they ask: never with MCP mode's
  // refuse or approve-all. A run missed while Familiar was closed starts here, once.
  if ((options.approvalMode ?? 'interactive') === 'interactive') await scheduler.start();
  // The workspace's own .mcp.json, offered (never started unless allowed for it): read in the background.
  void mcpHost.refreshOffer();

  return {
    dispatch,
    events,
    paths,
    settings,
    assistant,
    secrets,
    conversations,
    chat,
    scheduler,
    mcpHost,
    workspace,
    readySearch: () => searchReady.prestartNow(),
    async dispose(reason) {
      events.emit('app.shutdown', { reason });
      searchReady.dispose();
      scheduler.stop();
      runScope.closing = true;
      await chat.dispose(reason);
      await scheduler.idle();
      await conversations.close();
      chatImages.close();
      await workspace.close();
      await Promise.all([toolServices.dispose(), mcpHost.dispose()]);
    },
  };
}
