import { join } from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { bundledPackageFile } from '../../platform/processes/server-process';
import type { ConfinementRules } from '../../platform/processes/launch-types';
import type { WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import { LanguageClient } from './language-client';
import type { ClientTimings } from './language-client';
import { problemsOf } from './problem-counts';
import type { FileProblems } from './problem-counts';
import { builtInServers, commandFor, definitionFor } from './server-catalog';
import type { ServerCommand, ServerDefinition } from './server-catalog';

export interface LspServiceOptions {
  /**
   * Default: the built-in list (TypeScript shipped; pyright, gopls, rust-analyzer, clangd, dart from
   * PATH). A function is read on each use: the user's servers in settings come and go.
   */
  readonly servers?: readonly ServerDefinition[] | (() => readonly ServerDefinition[]);
  /** Names the user passes to child processes (settings: commands.passEnvironment). */
  readonly passEnvironment?: () => readonly string[];
  /**
   * What a server started for this workspace root may touch (process-rules.ts, 'language-server':
   * the workspace read-only, a scratch home for its caches, no network). Default: the user's rights.
   */
  readonly confinement?: (workspaceRoot: string) => Omit<ConfinementRules, 'cwd'>;
  readonly timings?: Partial<ClientTimings>;
  /** Servers running at once; starting one more stops the least recently used. */
  readonly maxServers?: number;
  readonly log?: (message: string) => void;
  /** A file's problem counts changed (each publishDiagnostics of a running server). */
  readonly onProblems?: (problems: FileProblems) => void;
  /** A server started, stopped, crashed or was restarted (the settings panel listens). */
  readonly onChange?: () => void;
}

/** One row of the settings panel: every server of the catalog, started or not. */
export interface ServerPanelRow {
  readonly id: string;
  /** not_installed: its program is not there (nothing on PATH); stopped: not started in this workspace. */
  readonly state: LanguageClient['state'] | 'not_installed';
  readonly userAdded: boolean;
  readonly pid: number | undefined;
  readonly restarts: number;
  /** The last lines it wrote to stderr (capped). */
  readonly log: readonly string[];
}

export interface ServerStatus {
  readonly server: string;
  readonly state: LanguageClient['state'];
  readonly pid: number | undefined;
  readonly restarts: number;
}

const defaultTimings: ClientTimings = {
  initializeMs: 20_000,
  requestMs: 10_000,
  coldRequestMs: 45_000,
  backoffMs: 500,
  maxBackoffMs: 30_000,
};

/**
 * The language servers of the open workspace: one client per server id, started lazily, stopped
 * all together when the workspace changes and when the app quits.
 */
export class LspService {
  private readonly catalog: () => readonly ServerDefinition[];
  private readonly timings: ClientTimings;
  private readonly maxServers: number;
  private readonly clients = new Map<string, LanguageClient>();
  private workspaceRoot: string | undefined;

  constructor(private readonly options: LspServiceOptions = {}) {
    const servers = options.servers ?? builtInServers;
    this.catalog = typeof servers === 'function' ? servers : () => servers;
    this.timings = { ...defaultTimings, ...options.timings };
    this.maxServers = Math.max(1, options.maxServers ?? 4);
  }

  /** Every server the catalog holds now (the user's first, then the built-in ones). */
  get servers(): readonly ServerDefinition[] {
    return this.catalog();
  }

  /** The server definition covering a file (installed or not). */
  definitionFor(relPath: string): ServerDefinition | undefined {
    return definitionFor(this.servers, relPath);
  }

  /** True when some server for this file's language can be started. */
  canServe(relPath: string): boolean {
    return commandFor(this.definitionFor(relPath), relPath).ok;
  }

  /** Servers whose program is there (TypeScript always, the others when on PATH). */
  availableServers(): readonly ServerDefinition[] {
    return this.servers.filter((server) => server.resolve() !== undefined);
  }

  /** The client already running for a file, without starting anything (diagnostics after edits). */
  runningFor(workspaceRoot: string, relPath: string): LanguageClient | undefined {
    if (workspaceRoot !== this.workspaceRoot) return undefined;
    const definition = this.definitionFor(relPath);
    const client = definition === undefined ? undefined : this.clients.get(definition.id);
    return client?.state === 'running' ? client : undefined;
  }

  /** The client for a file's language in this workspace, created (not yet started) if needed. */
  async clientFor(sandbox: WorkspaceSandbox, relPath: string): Promise<Result<LanguageClient>> {
    if (sandbox.workspaceRoot !== this.workspaceRoot) await this.switchWorkspace(sandbox.workspaceRoot);
    const resolved = commandFor(this.definitionFor(relPath), relPath);
    if (!resolved.ok) return resolved;
    return this.clientOf(sandbox, resolved.value.server, resolved.value.command);
  }

  private async clientOf(
    sandbox: WorkspaceSandbox,
    server: ServerDefinition,
    command: ServerCommand,
  ): Promise<Result<LanguageClient>> {
    const existing = this.clients.get(server.id);
    if (existing !== undefined) return ok(existing);
    await this.makeRoom();
    const client = new LanguageClient({
      definition: server,
      command,
      workspaceRoot: sandbox.workspaceRoot,
      initializationOptions: await initializationOptionsFor(server, sandbox),
      passEnvironment: this.options.passEnvironment ?? (() => []),
      ...(this.options.confinement === undefined
        ? {}
        : { confinement: this.options.confinement(sandbox.workspaceRoot) }),
      timings: this.timings,
      ...(this.options.log === undefined ? {} : { log: this.options.log }),
      onPublish: (uri, items) => this.reportProblems(sandbox.workspaceRoot, uri, items),
      ...(this.options.onChange === undefined ? {} : { onStateChange: this.options.onChange }),
    });
    this.clients.set(server.id, client);
    return ok(client);
  }

  /** Any client of this workspace by server id (tests, the status panel). */
  client(serverId: string): LanguageClient | undefined {
    return this.clients.get(serverId);
  }

  status(): readonly ServerStatus[] {
    return [...this.clients.values()].map((client) => ({
      server: client.serverId,
      state: client.state,
      pid: client.pid,
      restarts: client.restarts,
    }));
  }

  private reportProblems(root: string, uri: string, items: readonly Diagnostic[]): void {
    // Counts of a workspace no longer open would land in another folder's tree.
    if (root !== this.workspaceRoot || this.options.onProblems === undefined) return;
    const problems = problemsOf(root, uri, items);
    if (problems !== undefined) this.options.onProblems(problems);
  }

  /** Every server of the catalog as the settings panel shows it. */
  panel(): ServerPanelRow[] {
    return this.servers.map((server) => {
      const client = this.clients.get(server.id);
      const installed = client !== undefined || server.resolve() !== undefined;
      return {
        id: server.id,
        state: client?.state ?? (installed ? 'stopped' : 'not_installed'),
        userAdded: server.userAdded === true,
        pid: client?.pid,
        restarts: client?.restarts ?? 0,
        log: client?.stderrTail() ?? [],
      };
    });
  }

  /** The panel's Restart: the server stops (if it runs) and starts again now, in this workspace. */
  async restart(sandbox: WorkspaceSandbox, serverId: string): Promise<Result<void>> {
    if (sandbox.workspaceRoot !== this.workspaceRoot) await this.switchWorkspace(sandbox.workspaceRoot);
    const server = this.servers.find((candidate) => candidate.id === serverId);
    if (server === undefined) return err('not_found', `There is no language server '${serverId}'.`);
    const existing = this.clients.get(serverId);
    if (existing !== undefined) return existing.restart();
    const resolved = commandFor(server, serverId);
    if (!resolved.ok) return resolved;
    const client = await this.clientOf(sandbox, server, resolved.value.command);
    if (!client.ok) return client;
    const started = await client.value.connect();
    return started.ok ? ok(undefined) : started;
  }

  /** The catalog changed (servers edited in settings): every server stops; each starts again on next use. */
  async stopAll(): Promise<void> {
    const stopping = [...this.clients.values()];
    this.clients.clear();
    await Promise.all(stopping.map((client) => client.dispose()));
    this.options.onChange?.();
  }

  private async makeRoom(): Promise<void> {
    while (this.clients.size >= this.maxServers) {
      const oldest = [...this.clients.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0];
      if (oldest === undefined) return;
      this.clients.delete(oldest[0]);
      this.options.log?.(`stopping ${oldest[0]}: at most ${this.maxServers} language servers run at once`);
      await oldest[1].dispose();
    }
  }

  /** Every server of the previous workspace stops: their documents and answers belong to it. */
  async switchWorkspace(workspaceRoot: string | undefined): Promise<void> {
    if (workspaceRoot === this.workspaceRoot) return;
    this.workspaceRoot = workspaceRoot;
    await this.stopAll();
  }

  async dispose(): Promise<void> {
    await this.switchWorkspace(undefined);
  }
}

/**
 * TypeScript: the workspace's own compiler when it has one (the version its code is written for,
 * as an editor would pick), else the one Familiar ships.
 */
async function initializationOptionsFor(server: ServerDefinition, sandbox: WorkspaceSandbox): Promise<unknown> {
  if (server.id !== 'typescript') return undefined;
  const own = await sandbox.resolve('node_modules/typescript/lib/tsserver.js', 'read');
  const tsserver =
    own.ok && own.value.facts?.kind === 'file' && !own.value.inPersona
      ? join(sandbox.workspaceRoot, own.value.realRel)
      : bundledPackageFile('typescript', 'lib/tsserver.js');
  return {
    hostInfo: 'familiar',
    // Typings acquisition would run npm in the background to fetch @types packages: a network
    // download nobody asked for.
    disableAutomaticTypingAcquisition: true,
    // The syntax-only server answers while the project loads, with answers that look right and are
    // not (a definition that stops at the import, references in one file only): wait for the real one.
    tsserver: { useSyntaxServer: 'never', ...(tsserver === undefined ? {} : { path: tsserver }) },
  };
}
