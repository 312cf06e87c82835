import type { AppInfo } from '../../shared/ipc/app';
import { createChatHandlers } from '../agent/chat-handlers';
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
import { apiKeySecret, openSecretStore } from '../platform/secrets/secret-store';
import type { SecretStore } from '../platform/secrets/secret-store';
import { createPersonaFolder } from '../domain/persona/persona-folder';
import { checkChosenFolder, realFolder } from '../platform/disk/chosen-folder';
import { createChooseFolderHandler } from '../domain/workspace/choose-folder';
import { createWorkspaceService } from '../domain/workspace/workspace-service';
import type { WorkspaceService } from '../domain/workspace/workspace-service';
import { createAuditLog } from '../platform/audit/audit-log';
import { chooseDefaultWorkspace } from '../platform/storage/default-workspace';
import { createLanguageModel } from '../domain/providers/language-model';
import { runSampling } from '../agent/mcp-sampling';
import { err, ok } from '../../shared/result';
import { createEmbedder } from '../domain/providers/embedding-model';
import type { ProviderFetch } from '../domain/providers/language-model';
import { assistantTools } from '../tools';
import { fetchTransport } from '../tools/web/web-transport';
import { createToolEnvironment, createToolServices } from '../tools/kit/tool-services';
import type { FsWorkerPool } from '../platform/search-engines/fs-worker-pool';
import type { ToolLimits } from '../tools/kit/tool-limits';
import { createTransferService } from '../domain/transfers/transfer-service';
import { concealedWhileMemoryOff } from '../domain/policy/persona-rules';
import { hostKey } from '../domain/policy/allowed-hosts';
import type { AllowedHost } from '../../shared/settings';
import { createAppHandlers } from './app-handlers';
import { describeConfinement } from './confinement-info';
import { createAssistant } from './create-assistant';
import type { Assistant } from './create-assistant';
import type { ApprovalMode } from '../tool-calls/ask';
import type { Logger } from '../platform/logging/logger';
import { createSettingsHandlers } from './settings-handlers';
import { createMcpHost } from './mcp-host';
import type { McpHost } from './mcp-host';
import { keepMcpSecretsApart } from '../domain/mcp-servers/mcp-secrets';
import { WORKSPACE_MCP_FILE } from '../domain/mcp-servers/mcp-workspace-offer';
import { resolveMcpAttachments } from '../domain/mcp-servers/mcp-attachments';
import type { EventPayload } from '../../shared/ipc/contract';
import { createCodeAvailability } from '../domain/lsp/code-availability';
import { createLanguageServerHandlers, languageServerRows } from '../domain/lsp/language-server-handlers';
import { catalogWith } from '../domain/lsp/server-catalog';
import { createSkillHandlers } from '../domain/skills/skill-shelf';
import { readPersonaFile } from '../domain/persona/persona-files';
import { openRunHistory } from '../domain/schedules/run-history';
import { createScheduler, systemClock } from '../domain/schedules/scheduler';
import type { Scheduler, SchedulerClock } from '../domain/schedules/scheduler';
import type { ScheduleNotification } from '../../shared/ipc/schedules';
import { createScheduleHandlers } from './schedule-handlers';
import { configuredSearchService, createWebSearchHandlers } from './web-search-handlers';
import { createRunScope, runHeartbeat, runScheduledTask, unattendedWhere } from './schedule-runs';

export interface CoreOptions {
  readonly home: string;
  /**
   * Start the search threads with the core (ToolServicesOptions.warmSearchThreads); default true.
   * Test cores do not: under vitest each thread compiles the worker's source first.
   */
  readonly warmSearchThreads?: boolean;
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
  const toolServices = createToolServices({
    paths,
    resourcesDir: options.resourcesDir,
    warmSearchThreads: options.warmSearchThreads ?? true,
    ...(options.workers === undefined ? {} : { workers: options.workers }),
    transfers,
    sandboxSettings: () => {
      const { hardLinks, backups } = settings.get().safety;
      return {
        hardLinks,
        backups: {
          maxItems: backups.maxItems,
          maxBytes: backups.maxSizeMB * 1024 * 1024,
          maxAgeDays: backups.maxAgeDays,
        },
      };
    },
    passEnvironment: () => settings.get().commands.passEnvironment,
    // The hosts a confined command reaches without asking; an "always in this workspace" answer adds one.
    allowedHosts: {
      list: () => settings.get().commands.allowedHosts,
      remember: async (entry) => {
        const { allowedHosts } = settings.get().commands;
        const same = (kept: AllowedHost) =>
          kept.host === entry.host && kept.port === entry.port && kept.workspace === entry.workspace;
        if (allowedHosts.some(same)) return;
        await settings.update({ commands: { allowedHosts: [...allowedHosts, entry] } });
      },
    },
    readableInHome: () => settings.get().commands.readableInHome,
    // web_fetch: the hosts fetched without asking (an "always" answer adds one), and in the desktop
    // app Chromium's network stack (system proxy, OS certificates) instead of Node's pinned http(s).
    web: {
      allowedHosts: () => settings.get().web.allowedHosts,
      rememberHost: async (entry) => {
        const { allowedHosts } = settings.get().web;
        if (allowedHosts.includes(entry)) return;
        await settings.update({ web: { allowedHosts: [...allowedHosts, entry] } });
      },
      ...(options.fetch === undefined ? {} : { transport: fetchTransport(options.fetch) }),
      // web_search: the service in settings web.search, Brave's or Tavily's key from the secret store.
      searchService: () => configuredSearchService(settings, secrets),
    },
    diagnosticsAfterEdits: () => settings.get().code.diagnosticsAfterEdits,
    searchIndex: () => settings.get().search.index,
    lsp: {
      // The user's servers (settings: code.servers) first, then the built-in ones; read on each use.
      servers: () => catalogWith(settings.get().code.servers),
      log: (message) => options.logger.info(`lsp: ${message}`),
      onChange: () => events.emit('languageServers.changed', { servers: languageServerRows(toolServices.code.lsp) }),
      // The tree's and the header's problem counts.
      onProblems: ({ root, ...file }) => events.emit('problems.changed', { root, files: [file] }),
    },
    // file_semantic_search: hybrid ranking when the settings name an embedding model on the provider.
    embedder: () => {
      const { provider, search } = settings.get();
      if (provider === null || search.embeddingModel === null) return undefined;
      return createEmbedder(provider, search.embeddingModel, secrets.get(apiKeySecret(provider.kind)), options.fetch);
    },
    onIndexStatus: (status) => events.emit('workspace.searchIndex', status),
    skillsDisabled: () => settings.get().skills.disabled,
    ...(options.userSkillsDir === undefined ? {} : { userSkillsDir: options.userSkillsDir }),
    ...(options.toolLimits === undefined ? {} : { limits: options.toolLimits }),
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
  const workspaceSandbox = async () =>
    (
      await createToolEnvironment({
        services: toolServices,
        workspaceRoot: workspacePath(),
        isConcealed: (path) => concealedWhileMemoryOff(assistant.policy.get(), settings.get().memory.enabled, path),
      })
    ).sandbox;
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
  const mcpHost = createMcpHost({
    settings,
    secrets,
    reveal: mcpSecrets.reveal,
    events,
    logger: options.logger,
    version: options.version,
    home: paths.home,
    folders: async () => {
      const env = await toolEnvironmentNow();
      return {
        workspaceRoot: env.workspaceRoot,
        personaDir: env.personaDir,
        familiarHome: await realFolder(paths.home),
        memoryOn: false,
        readableInHome: settings.get().commands.readableInHome,
      };
    },
    workspaceRoot: workspacePath,
    readWorkspaceFile: async (name) => {
      const sandbox = await workspaceSandbox();
      const at = await sandbox.resolve(name, 'read');
      if (!at.ok) return undefined;
      const read = await sandbox.readWholeFile(at.value, 1_000_000, () =>
        err('file_too_large', `${name} is over 1 MB`),
      );
      return read.ok ? read.value.bytes.toString('utf8') : undefined;
    },
    // Only where a person answers approvals: MCP mode serves Familiar's tools, it hosts no servers.
    start: (options.approvalMode ?? 'interactive') === 'interactive',
    // A server's questions go to the one approval dialog (the broker is made with the assistant below).
    ask: (input, signal) => assistant.broker.request(input, signal),
    sample: async (params, maxTokens, signal) => {
      const provider = settings.get().provider;
      if (provider === null) return err('provider_not_configured', 'Choose a model provider in Settings first.');
      const model = createLanguageModel(provider, secrets.get(apiKeySecret(provider.kind)), options.fetch);
      if (!model.ok) return model;
      try {
        return ok(await runSampling(model.value, params, maxTokens, signal));
      } catch (error) {
        return err('provider_error', error instanceof Error ? error.message : String(error));
      }
    },
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
    recordApproval: (request, outcome, reason) => {
      // The user's answer goes into the conversation too, so its tool card says so after a reload. A
      // network question is about a command that already runs: its card keeps the command's answer; a
      // server's question (elicitation, sampling) comes during a call already approved: the same.
      const during =
        request.network !== undefined || request.elicitation !== undefined || request.sampling !== undefined;
      const decision = during ? undefined : transcriptDecisionOf(outcome);
      if (decision !== undefined) {
        const record = { type: 'approval' as const, toolCallId: request.toolCallId, decision };
        conversations
          .append(request.conversationId, [reason === undefined ? record : { ...record, reason }])
          .then((appended) => {
            if (!appended.ok) options.logger.warn(`approval not recorded: ${appended.error.message}`);
          })
          .catch((error: unknown) => options.logger.error('could not record an approval in its conversation', error));
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
    },
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
  const clock = options.scheduleClock ?? systemClock;
  let unseen = 0;
  const notify = (notification: Omit<ScheduleNotification, 'id' | 'at'>) => {
    unseen += 1;
    events.emit('schedules.notification', {
      ...notification,
      id: `n-${unseen}-${clock.now().getTime()}`,
      at: clock.now().toISOString(),
    });
    events.emit('schedules.changed', { unseen });
  };
  const checkWorkspace = (path: string) =>
    checkChosenFolder(path, { home: paths.home, personaDir: paths.defaultWorkspace });
  const runDeps = {
    conversations,
    chat,
    scope: runScope,
    readHeartbeat: () => readPersonaFile(personaFolder, 'HEARTBEAT.md'),
    checkWorkspace,
    notify,
  };
  const scheduler = createScheduler({
    clock,
    history: await openRunHistory(paths.schedules),
    tasks: () => settings.get().schedules.tasks,
    heartbeat: () => settings.get().schedules.heartbeat,
    runTask: (task, info) => runScheduledTask(runDeps, task, info),
    runHeartbeat: (info) => runHeartbeat(runDeps, info),
    onChange: () => events.emit('schedules.changed', { unseen }),
    logger: options.logger,
  });
  // A task's approval waits for the user wherever they are: the notification says so.
  events.subscribe((name, payload) => {
    if (name !== 'approvals.requested') return;
    const request = payload as EventPayload<'approvals.requested'>;
    const task = runScope.tasks.get(request.conversationId);
    if (task !== undefined) {
      notify({ kind: 'approval', title: task, body: request.summary, conversationId: request.conversationId });
    }
  });
  settings.subscribe((next, previous) => {
    if (JSON.stringify(next.schedules) !== JSON.stringify(previous.schedules)) {
      events.emit('schedules.changed', { unseen });
      void scheduler.check();
    }
  });
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
    ...createScheduleHandlers({
      scheduler,
      settings,
      now: () => clock.now(),
      checkWorkspace,
      unseen: () => unseen,
      markSeen: () => {
        unseen = 0;
        events.emit('schedules.changed', { unseen });
      },
    }),
    ...mcpHost.handlers,
    ...createWebSearchHandlers(settings, secrets, () => {
      for (const listener of searchKeyListeners) listener();
    }),
  };
  // The first answer while the rest starts: a turn or an MCP client's list awaits it anyway.
  void codeAvailability.refresh({ background: true });
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
    async dispose(reason) {
      events.emit('app.shutdown', { reason });
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

/** Answers the user gave (not expiries or stopped turns) as a transcript's approval decision. */
function transcriptDecisionOf(outcome: string): 'approved' | 'edited' | 'rejected' | undefined {
  if (outcome === 'approved') return 'approved';
  if (outcome === 'approved-edited') return 'edited';
  if (outcome === 'rejected') return 'rejected';
  return undefined;
}
