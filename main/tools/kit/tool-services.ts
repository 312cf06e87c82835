import { probeConfinementSoon } from '../../platform/processes/confinement';
import { createDenyList } from '../../platform/disk/deny-list';
import type { DenyList, DenyRule } from '../../platform/disk/deny-list';
import { createFsWorkerPool } from '../../platform/search-engines/fs-worker-pool';
import type { FsWorkerPool } from '../../platform/search-engines/fs-worker-pool';
import { createPathLocks } from '../../platform/disk/path-locks';
import type { PathLocks } from '../../platform/disk/path-locks';
import { rulesFor } from '../../platform/processes/process-rules';
import { createAnchorRoots } from '../../platform/disk/anchor-roots';
import type { AnchorRoots } from '../../platform/disk/anchor-roots';
import { createRecoveryStore } from '../../platform/recovery/recovery-stores';
import type { RecoveryStore } from '../../platform/recovery/recovery-stores';
import { defaultBackupRetention } from '../../platform/recovery/recovery-retention';
import type { RecoveryRetention } from '../../platform/recovery/recovery-retention';
import { createTempJournal, sweepTempFiles } from '../../platform/recovery/temp-journal';
import type { TempJournal } from '../../platform/disk/temp-files';
import { createWorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import { WorkspaceIndexes } from '../../domain/search/workspace-indexes';
import { NgramIndexes } from '../../domain/search/ngram/ngram-indexes';
import { ForegroundGate } from '../../platform/search-engines/foreground-gate';
import { HeapRelease } from '../../platform/heap/heap-release';
import type { EmbedderSource } from '../../domain/search/semantic-answer';
import type { IndexStatusListener } from '../../domain/search/index-status';
import type { FamiliarPaths } from '../../platform/storage/paths';
import type { TransferService } from '../../domain/transfers/transfer-service';
import type { CodeIntelligence } from '../../domain/lsp/code-intelligence';
import { LspService } from '../../domain/lsp/lsp-service';
import type { LspServiceOptions } from '../../domain/lsp/lsp-service';
import { locateRipgrep } from '../../platform/processes/ripgrep-locate';
import type { RipgrepLookup } from '../../platform/processes/ripgrep-locate';
import type { SearchEngineInfo } from '../../../shared/ipc/app';
import { join, resolve } from 'node:path';
import { homedir } from 'node:os';
import { createSkillShelf } from '../../domain/skills/skill-shelf';
import type { SkillShelf } from '../../domain/skills/skill-shelf';
import { createReadTracker } from './read-tracker';
import type { ReadTracker } from './read-tracker';
import type { ToolEnvironment } from './tool-environment';
import type { AllowedHost } from '../../../shared/settings';
import type { WebAccess } from '../web/web-access';
import { pinnedTransport } from '../web/web-transport';
import { resolveToolLimits } from './tool-limits';
import type { ToolLimits } from './tool-limits';

/** The long-lived parts every ToolEnvironment shares: create once per app (or per MCP server). */
export interface ToolServices {
  readonly paths: FamiliarPaths;
  readonly limits: ToolLimits;
  readonly denyList: DenyList;
  readonly readTracker: ReadTracker;
  readonly locks: PathLocks;
  readonly workers: FsWorkerPool;
  /** ripgrep for search_in_code (the packaged app's own, else PATH), unless turned off (searchEngine: 'js'). */
  readonly ripgrep: string | undefined;
  /** Where that ripgrep came from, or why there is none (Settings → Safety, the packaged smoke test). */
  readonly searchEngine: SearchEngineInfo;
  /** The open workspace's semantic-search index, saved under the Familiar home's search-index/. */
  readonly searchIndexes: WorkspaceIndexes;
  /** search_in_code's trigram indexes, saved under the Familiar home's ngram-index/. */
  readonly ngramIndexes: NgramIndexes;
  /** Held by each tool call while it runs: the indexes' background work waits meanwhile. */
  readonly foreground: ForegroundGate;
  /** Whether search_in_code uses them (settings: search.index). */
  searchIndexEnabled(): boolean;
  readonly transfers: TransferService | undefined;
  /** Previous versions of overwritten files, and the trash, in the Familiar home. */
  readonly backups: RecoveryStore;
  readonly trash: RecoveryStore;
  /** The workspace and persona folders held open by descriptor (sandbox roots). */
  readonly roots: AnchorRoots;
  /** Temp files of atomic writes while they exist (swept at start when their writer is gone). */
  readonly tempJournal: TempJournal;
  /** Language servers, started lazily per workspace and language; stopped by dispose. */
  readonly code: CodeIntelligence;
  /** Hard-linked files: refused by default (see SECURITY.md). */
  hardLinks(): 'refuse' | 'allow';
  /** Variables the user passes to child processes by name (settings: commands.passEnvironment). */
  passEnvironment(): readonly string[];
  /** Hosts a confined command may reach without asking, and how one is added (settings: commands.allowedHosts). */
  allowedHosts(): readonly AllowedHost[];
  rememberHost(entry: AllowedHost): Promise<void>;
  /** What confined processes may read of the user's home beyond the toolchains (settings: commands.readableInHome). */
  readableInHome(): readonly string[];
  /** web_fetch's transport, name resolution and allowed hosts (settings: web.allowedHosts). */
  readonly web: WebAccess;
  /** Agent Skills in the workspace's .agents/skills, ~/.agents/skills and the home's skills/ (read-only). */
  readonly skills: SkillShelf;
  /** Ends the worker threads and the index watcher. */
  dispose(): Promise<void>;
}

export interface ToolServicesOptions {
  readonly paths: FamiliarPaths;
  readonly limits?: Partial<ToolLimits>;
  /** Default: .env*, *.pem, *.key, id_rsa* (all access) and .git/ (writes). */
  readonly denyRules?: readonly DenyRule[];
  /** Worker threads; default min(4, CPUs). */
  readonly workerThreads?: number;
  /**
   * The file threads' pool, when the entry started it before the app's modules loaded (mcp.ts, serve.ts):
   * these services own it from here (dispose ends it) and their call gate sets its `hold`, so it
   * serves these services alone. Default: a new pool of `workerThreads` (ignored when this is given).
   */
  readonly workers?: FsWorkerPool;
  /**
   * Start the search threads now, not on the first search that needs them: a broad first search
   * shares its reads among them, and their start (~35 ms each, on a busy machine more) would add
   * to its answer (70-90 ms measured, for a first search within the 30 s an idle second thread
   * lives). Idle, one stays (~15 MB), as after any search. The app's core does (CoreOptions); a
   * test's short-lived services do not.
   */
  readonly warmSearchThreads?: boolean;
  /**
   * Collect the heap once the app's start is over (HeapRelease.afterStart), so that the first call
   * does not pay V8's first full collection. The entries' cores do (command-line.ts, start-desktop.ts);
   * tests' and benches' services do not (each would stop its process for a collection of its heap).
   */
  readonly collectAfterStart?: boolean;
  /** search_in_code's engine: ripgrep when on PATH ('auto', the default), or always the JS engine. */
  readonly searchEngine?: 'auto' | 'js';
  /** The packaged app's resources folder, where its own ripgrep is (ripgrep-locate.ts); undefined: rg on PATH. */
  readonly resourcesDir?: string | undefined;
  /** Downloads offered to the user and uploads received (the core wires its events in). */
  readonly transfers?: TransferService;
  /** Read on every use: the settings may change while the app runs. */
  readonly sandboxSettings?: () => { readonly hardLinks: 'refuse' | 'allow'; readonly backups: RecoveryRetention };
  /** Read on every child process start; default none (the allow-list alone). */
  readonly passEnvironment?: () => readonly string[];
  /**
   * Read on every network request of a confined command (settings: commands.allowedHosts), and how
   * an "always" answer is kept; default a list in memory, starting empty.
   */
  readonly allowedHosts?: {
    readonly list: () => readonly AllowedHost[];
    readonly remember: (entry: AllowedHost) => Promise<void>;
  };
  /** Read on every child process start; default none (the toolchains alone). */
  readonly readableInHome?: () => readonly string[];
  /**
   * web_fetch: its allowed hosts (settings web.allowedHosts; default a list in memory, starting
   * empty), the transport (default Node's http(s) pinned to the checked address; the desktop passes
   * net.fetch) and name resolution (tests inject one).
   */
  readonly web?: Partial<WebAccess>;
  /** Language servers: timings, cap, log (tests shorten the timings). */
  readonly lsp?: Omit<LspServiceOptions, 'passEnvironment' | 'confinement'>;
  /** Read on every write: settings code.diagnosticsAfterEdits (default on). */
  readonly diagnosticsAfterEdits?: () => boolean;
  /** Read on every search: settings search.index (default on). */
  readonly searchIndex?: () => boolean;
  /** file_semantic_search's embedding model, read per query (settings search.embeddingModel); default none. */
  readonly embedder?: EmbedderSource;
  /** The semantic index follows outside changes with a file watcher (default true; tests turn it off). */
  readonly watchSearchIndex?: boolean;
  /** The semantic index's progress while it builds (the core turns it into an event for the UI). */
  readonly onIndexStatus?: IndexStatusListener;
  /** The user's skills folder; default ~/.agents/skills (tests give their own). */
  readonly userSkillsDir?: string;
  /** Skill names switched off, read on every look (settings: skills.disabled); default none. */
  readonly skillsDisabled?: () => readonly string[];
}

/** A semantic refresh that read this many files was a build: its garbage is worth a collection. */
const FILES_READ_BEFORE_RELEASE = 1000;

/**
 * Background index work stays paused this long after a call's run ends: the result's checks, the
 * audit line and the answer go out first, and an agent's next call usually comes within it.
 */
const CALL_LINGER_MS = 150;
/** Calls closer together than the linger for this long: the index build gets its step between them again. */
const CALL_LINGER_CAP_MS = 2000;

/** search_in_code's engine: ripgrep unless turned off, the packaged app's own before PATH's. */
export function chooseSearchEngine(choice: 'auto' | 'js' | undefined, lookup: RipgrepLookup): SearchEngineInfo {
  if (choice === 'js') return { engine: 'js', reason: 'off' };
  const found = locateRipgrep(lookup);
  return found === undefined ? { engine: 'js', reason: 'missing' } : { engine: 'ripgrep', ...found };
}

export function createToolServices(options: ToolServicesOptions): ToolServices {
  const searchEngine = chooseSearchEngine(options.searchEngine, { resourcesDir: options.resourcesDir });
  const workers =
    options.workers ?? createFsWorkerPool(options.workerThreads === undefined ? {} : { size: options.workerThreads });
  // Index threads pause between files while a call runs: the gate sets the pool's flag.
  const foreground = new ForegroundGate({
    lingerMs: CALL_LINGER_MS,
    lingerCapMs: CALL_LINGER_CAP_MS,
    shared: workers.hold,
  });
  // Whether bubblewrap confines here is known before the first call needs it.
  void probeConfinementSoon();
  if (options.warmSearchThreads === true) workers.warm();
  // Once every build is over and no call runs, the heap they grew is collected (issue 32 item 7).
  const heapRelease = new HeapRelease(() => foreground.busy);
  if (options.collectAfterStart === true) heapRelease.afterStart();
  let filesReadAtRelease = 0;
  const onIndexStatus: IndexStatusListener = (status) => {
    options.onIndexStatus?.(status);
    if (status.filesRead < filesReadAtRelease) filesReadAtRelease = 0; // another workspace's index
    if (status.state === 'ready' && status.filesRead - filesReadAtRelease >= FILES_READ_BEFORE_RELEASE) {
      filesReadAtRelease = status.filesRead;
      heapRelease.afterBuild();
    }
  };
  // Both indexes watch their workspace's folders through the anchored lookups (no symlink followed).
  const roots = createAnchorRoots();
  const searchIndexes = new WorkspaceIndexes(options.paths.searchIndexes, {
    watchChanges: options.watchSearchIndex ?? true,
    anchored: roots.anchored,
    ...(options.embedder === undefined ? {} : { embedder: options.embedder }),
    onStatus: onIndexStatus,
    onWorking: (root, working) => heapRelease.building(`semantic ${root}`, working),
    foreground,
  });
  const ngramIndexes = new NgramIndexes(options.paths.ngramIndexes, workers, {
    anchored: roots.anchored,
    foreground,
    onReady: () => heapRelease.afterBuild(),
    onWorking: (root, working) => heapRelease.building(`trigram ${root}`, working),
  });
  const journalFile = join(options.paths.home, 'temp-files.jsonl');
  // Temp files a crashed run left next to its targets go before anything else is written.
  sweepTempFiles(journalFile, roots);
  const settings =
    options.sandboxSettings ?? (() => ({ hardLinks: 'refuse' as const, backups: defaultBackupRetention }));
  const backups = createRecoveryStore(options.paths.backups, 'backup', () => settings().backups);
  const trash = createRecoveryStore(options.paths.trash, 'trash');
  const passEnvironment = options.passEnvironment ?? (() => []);
  // A language server reads the workspace and nothing of Familiar's or the user's home; memory files
  // are no server's business (hidden whatever the switch says).
  const serverRules = (workspaceRoot: string) =>
    rulesFor('language-server', {
      workspaceRoot,
      personaDir: realPathOf(roots, options.paths.defaultWorkspace),
      familiarHome: realPathOf(roots, options.paths.home),
      memoryOn: false,
    });
  const lsp = new LspService({ ...options.lsp, passEnvironment, confinement: serverRules });
  const rememberedHosts: AllowedHost[] = [];
  const allowedHosts = options.allowedHosts ?? {
    list: () => rememberedHosts,
    remember: (entry: AllowedHost) => Promise.resolve(void rememberedHosts.push(entry)),
  };
  const rememberedWebHosts: string[] = [];
  const web: WebAccess = {
    allowedHosts: options.web?.allowedHosts ?? (() => rememberedWebHosts),
    rememberHost: options.web?.rememberHost ?? ((entry) => Promise.resolve(void rememberedWebHosts.push(entry))),
    transport: options.web?.transport ?? pinnedTransport(),
    searchService: options.web?.searchService ?? (() => undefined),
    ...(options.web?.lookup === undefined ? {} : { lookup: options.web.lookup }),
  };
  return {
    paths: options.paths,
    web,
    limits: resolveToolLimits(options.limits),
    denyList: createDenyList(options.denyRules),
    readTracker: createReadTracker(),
    locks: createPathLocks(),
    workers,
    ripgrep: searchEngine.engine === 'ripgrep' ? searchEngine.path : undefined,
    searchEngine,
    searchIndexes,
    ngramIndexes,
    foreground,
    searchIndexEnabled: options.searchIndex ?? (() => true),
    transfers: options.transfers,
    roots,
    tempJournal: createTempJournal(journalFile),
    hardLinks: () => settings().hardLinks,
    passEnvironment,
    allowedHosts: allowedHosts.list,
    rememberHost: allowedHosts.remember,
    readableInHome: options.readableInHome ?? (() => []),
    code: { lsp, diagnosticsAfterEdits: options.diagnosticsAfterEdits ?? (() => true) },
    skills: createSkillShelf({
      roots,
      userDir: options.userSkillsDir ?? join(homedir(), '.agents', 'skills'),
      familiarDir: options.paths.skills,
      familiarHome: options.paths.home,
      disabled: options.skillsDisabled ?? (() => []),
    }),
    backups,
    trash,
    dispose: async () => {
      // Side by side: a language server's polite shutdown may take a second, and an exit that must
      // come soon (mcp.ts) needs the index builds stopped at once.
      heapRelease.dispose();
      await Promise.all([lsp.dispose(), searchIndexes.close(), ngramIndexes.close()]);
      await workers.dispose();
      roots.closeAll();
    },
  };
}

export interface ToolEnvironmentOptions {
  readonly services: ToolServices;
  /** The folder the assistant works on. */
  readonly workspaceRoot: string;
  /** Default: the Familiar home's workspace (paths.defaultWorkspace). */
  readonly personaDir?: string;
  /** Default: nothing concealed. */
  readonly isConcealed?: (relativePath: string) => boolean;
}

/** The real path of a folder held open, or its plain absolute form while it does not exist. */
const realPathOf = (roots: AnchorRoots, path: string): string => roots.get(path)?.dir.path ?? resolve(path);

/** Cheap (the folders are held open already; one fstat each): the tool-call pipeline builds one per call. */
export async function createToolEnvironment(options: ToolEnvironmentOptions): Promise<ToolEnvironment> {
  const { services } = options;
  const { roots } = services;
  // A missing folder still gets an environment; tools then answer file_not_found instead of crashing.
  const workspaceRoot = realPathOf(roots, options.workspaceRoot);
  const personaDir = realPathOf(roots, options.personaDir ?? services.paths.defaultWorkspace);
  const home = realPathOf(roots, services.paths.home);
  const isConcealed = options.isConcealed ?? (() => false);
  // Started with the services: settled here, so no call waits for bubblewrap to start `true`.
  await probeConfinementSoon();
  return {
    workspaceRoot,
    personaDir,
    isConcealed,
    sandbox: createWorkspaceSandbox({
      workspaceRoot,
      personaDir,
      roots,
      protectedDirs: [home],
      isConcealed,
      denyList: services.denyList,
      hardLinks: services.hardLinks(),
      tempJournal: services.tempJournal,
    }),
    limits: services.limits,
    readTracker: services.readTracker,
    locks: services.locks,
    backups: services.backups,
    trash: services.trash,
    workers: services.workers,
    ripgrep: services.ripgrep,
    searchIndexes: services.searchIndexes,
    ngramIndexes: services.ngramIndexes,
    foreground: services.foreground,
    searchIndexEnabled: () => services.searchIndexEnabled(),
    ...(services.transfers === undefined ? {} : { transfers: services.transfers }),
    code: services.code,
    skills: services.skills,
    passEnvironment: () => services.passEnvironment(),
    allowedHosts: () => services.allowedHosts(),
    rememberHost: (entry) => services.rememberHost(entry),
    web: services.web,
    confinementFor: (kind) =>
      rulesFor(kind, {
        workspaceRoot,
        personaDir,
        familiarHome: home,
        memoryOn: !isConcealed('MEMORY.md'),
        readableInHome: services.readableInHome(),
        skillFolders: services.skills.outsideDirs.map((dir) => realPathOf(roots, dir)),
        ...(services.ripgrep === undefined ? {} : { ripgrep: services.ripgrep }),
      }),
  };
}
