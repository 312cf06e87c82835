import type {
  CallToolResult,
  GetPromptResult,
  LoggingLevel,
  ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpCatalog } from '../../../shared/mcp-attachments';
import type { McpServerConfig, McpServerStatus } from '../../../shared/mcp-servers';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { HostTarget } from '../../platform/processes/network-proxy';
import type { ServerProcess } from '../../platform/processes/server-process';
import { needsSignIn, openConnection, StartFailed } from './mcp-connection';
import type {
  CallContext,
  CallOptions,
  ElicitHandler,
  McpAuthProvider,
  McpConnection,
  SampleHandler,
} from './mcp-connection';
import type { HostAnswer, ServerNetwork } from './mcp-server-network';
import type { RequestOptions } from './mcp-resources';
import { toolEntries } from './mcp-tool-list';
import type { McpToolEntry, SkippedTool } from './mcp-tool-list';

export interface McpServerManagerOptions {
  /** Starts a stdio server in its sandbox, its network put to the gate `network` describes (mcp-server-network.ts). */
  readonly startProcess: (
    config: Extract<McpServerConfig, { transport: 'stdio' }>,
    network: ServerNetwork,
  ) => Promise<ServerProcess>;
  readonly workspaceRoot: () => string;
  readonly version: string;
  /** Told whenever a status or the tool list changes. */
  readonly onChange?: () => void;
  readonly log?: (message: string) => void;
  /** Streamable HTTP: the OAuth provider of a server (its saved sign-in). */
  readonly authProvider?: (config: Extract<McpServerConfig, { transport: 'http' }>) => McpAuthProvider;
  /** Handshake and first tool list (default 30 s). */
  readonly startTimeoutMs?: number;
  /** The waits before each restart after a crash (default 1, 2, 4, 8, 16 s); after the last, failed. */
  readonly backoffMs?: readonly number[];
  /** A server ready this long has its crash count forgiven (default 60 s). */
  readonly stableMs?: number;
  /** The least a server's log message must be to reach Familiar's log (default info). */
  readonly logLevel?: LoggingLevel;
  /**
   * A server asks the user (elicitation/create). `call` is the server's call in flight when it
   * asked (the latest, when several are): the conversation the question belongs to.
   */
  readonly onElicit?: (asker: ServerAsker, ...question: Parameters<ElicitHandler>) => ReturnType<ElicitHandler>;
  /**
   * A stdio server reaches for a host not granted to it: the user's answer (askServerHost in
   * mcp-server-network.ts). Absent: such a host is refused without asking.
   */
  readonly onHostQuestion?: (asker: ServerAsker, target: HostTarget, signal: AbortSignal) => Promise<HostAnswer>;
  /** A server asks the model (sampling/createMessage); absent: servers are not offered sampling. */
  readonly onSample?: (asker: ServerAsker, ...question: Parameters<SampleHandler>) => ReturnType<SampleHandler>;
}

/** Who is asking: the server, and the call of a conversation it was answering, if any. */
export interface ServerAsker {
  readonly server: string;
  readonly call?: CallContext;
}

/** What the grants of a stdio server amount to, as the status line says them. */
export const describeGrants = (config: McpServerConfig): string[] =>
  config.transport === 'http'
    ? []
    : [
        config.grants.writeWorkspace ? 'workspace: read and write' : 'workspace: read only',
        'its own data folder',
        config.grants.hosts.length === 0 ? 'no network' : `network: ${config.grants.hosts.join(', ')}`,
      ];

interface Running {
  config: McpServerConfig;
  state: McpServerStatus['state'];
  connection?: McpConnection | undefined;
  entries: McpToolEntry[];
  skipped: SkippedTool[];
  error?: string | undefined;
  stderr: string[];
  refusedHosts: Set<string>;
  crashes: number;
  readySince?: number | undefined;
  timer?: NodeJS.Timeout;
  /** Bumped on every (re)start and stop: a late answer of an old session is ignored. */
  generation: number;
  /** The calls in flight, oldest first: a question the server asks meanwhile belongs to the latest. */
  inflight: CallContext[];
  /** Aborted when that call ends: a host question it raised is withdrawn with it. */
  ended: Map<CallContext, AbortController>;
}

const sameConfig = (a: McpServerConfig, b: McpServerConfig) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The new config only adds hosts to a stdio server's grants (an "always" answer, the Settings
 * field): the running process reads its grants per request, so it need not restart. A host taken
 * away restarts it, which cuts the connections it holds.
 */
const onlyHostsAdded = (next: McpServerConfig, running: McpServerConfig): boolean => {
  if (next.transport !== 'stdio' || running.transport !== 'stdio') return false;
  const held = new Set(running.grants.hosts);
  return (
    running.grants.hosts.every((host) => next.grants.hosts.includes(host)) &&
    next.grants.hosts.some((host) => !held.has(host)) &&
    sameConfig(
      { ...next, grants: { ...next.grants, hosts: [] } },
      { ...running, grants: { ...running.grants, hosts: [] } },
    )
  );
};

/**
 * The user's MCP servers (issue 29): every enabled one starts at once and in parallel, in the
 * background (nothing waits for them: the first message goes while they start), and is watched:
 * a crash restarts it after a growing wait, a hang is timed out, and the status says which.
 */
export class McpServerManager {
  private readonly servers = new Map<string, Running>();
  private readonly backoff: readonly number[];
  private readonly stableMs: number;
  private disposed = false;

  constructor(private readonly options: McpServerManagerOptions) {
    this.backoff = options.backoffMs ?? [1000, 2000, 4000, 8000, 16000];
    this.stableMs = options.stableMs ?? 60_000;
  }

  /** Brings the running servers in line with the settings: new ones start, removed or changed ones stop. */
  sync(configs: readonly McpServerConfig[]): void {
    const wanted = new Map(configs.map((config) => [config.id, config]));
    // Nothing configured and nothing running: nothing to say (a workspace switch with no servers).
    if (configs.length === 0 && this.servers.size === 0) return;
    for (const [id, running] of this.servers) {
      const next = wanted.get(id);
      if (next === undefined) {
        void this.stop(running);
        this.servers.delete(id);
      } else if (onlyHostsAdded(next, running.config)) {
        running.config = next;
        // A refused host allowed since is no longer shown as refused.
        const now = next.transport === 'stdio' ? next.grants.hosts : [];
        for (const host of running.refusedHosts) {
          if (now.includes(host) || now.includes(host.replace(/:\d+$/, ''))) running.refusedHosts.delete(host);
        }
      } else if (!sameConfig(next, running.config)) {
        void this.stop(running);
        this.servers.delete(id);
      }
    }
    for (const config of configs) {
      if (this.servers.has(config.id)) continue;
      const running: Running = {
        config,
        state: 'disabled',
        entries: [],
        skipped: [],
        stderr: [],
        refusedHosts: new Set(),
        crashes: 0,
        generation: 0,
        inflight: [],
        ended: new Map(),
      };
      this.servers.set(config.id, running);
      if (config.enabled) void this.start(running);
    }
    this.changed();
  }

  statuses(): McpServerStatus[] {
    return [...this.servers.values()].map((running) => ({
      id: running.config.id,
      state: running.state,
      tools: running.entries.length,
      skipped: running.skipped.map((entry) => ({ ...entry })),
      ...(running.error === undefined ? {} : { error: running.error }),
      stderr: [...(running.connection?.stderr() ?? running.stderr)],
      ...(running.config.transport === 'stdio' && running.connection !== undefined
        ? { confined: running.connection.confined }
        : {}),
      grants: describeGrants(running.config),
      refusedHosts: [...running.refusedHosts],
    }));
  }

  /** Every ready server's tools. */
  tools(): McpToolEntry[] {
    return [...this.servers.values()].flatMap((running) => (running.state === 'ready' ? running.entries : []));
  }

  config(id: string): McpServerConfig | undefined {
    return this.servers.get(id)?.config;
  }

  /** Restart asked by the user: the crash count starts over. */
  async restart(id: string): Promise<Result<McpServerStatus>> {
    const running = this.servers.get(id);
    if (running === undefined) return err('not_found', `There is no MCP server ${id}.`);
    if (!running.config.enabled) return err('invalid_payload', `The MCP server ${id} is switched off.`);
    running.state = 'starting';
    this.changed();
    await this.stop(running);
    running.crashes = 0;
    await this.start(running);
    return ok(this.statuses().find((status) => status.id === id)!);
  }

  /** Waits until no server is starting or restarting (tests; the UI just listens). */
  async settled(timeoutMs = 30_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while ([...this.servers.values()].some((s) => s.state === 'starting' || s.state === 'restarting')) {
      if (Date.now() > until) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async call(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<Result<CallToolResult>> {
    const running = this.servers.get(server);
    const connection = running?.state === 'ready' ? running.connection : undefined;
    if (running === undefined || connection === undefined) {
      const state = running === undefined ? 'removed' : running.state;
      return err('mcp_server_unavailable', `The MCP server ${server} is not ready (${state}).`, {
        server,
        state,
        ...(running?.error === undefined ? {} : { error: running.error }),
      });
    }
    const context = options.context;
    if (context !== undefined) {
      running.inflight.push(context);
      running.ended.set(context, new AbortController());
    }
    try {
      return ok(await connection.call(tool, args, options));
    } catch (error) {
      if (options.signal.aborted) return err('aborted', 'The call was cancelled; the server was told.');
      const message = error instanceof Error ? error.message : String(error);
      if (needsSignIn(error) && running.state === 'ready' && running.connection === connection) {
        // Step-up: this call needs more access (403 insufficient_scope) than the sign-in gave, and
        // only the user can grant it. The server waits as 'needs sign-in'; Sign in asks for the scopes
        // the refusal named (mcp-oauth-provider.ts) and restarts it.
        await this.stop(running);
        running.state = 'needs-sign-in';
        this.options.log?.(`${server}: needs sign-in (the server asks for more access)`);
        this.changed();
        return err('mcp_server_unavailable', `The MCP server ${server} asks you to sign in again: ${message}`, {
          server,
          state: 'needs-sign-in',
        });
      }
      if (running.state !== 'ready') {
        return err('mcp_server_unavailable', `The MCP server ${server} stopped during the call: ${message}`, {
          server,
        });
      }
      return err('mcp_tool_error', `${server}__${tool} failed: ${message}`, { server, tool });
    } finally {
      if (context !== undefined) {
        running.inflight.splice(running.inflight.indexOf(context), 1);
        running.ended.get(context)?.abort();
        running.ended.delete(context);
      }
    }
  }

  /** Every ready server's resources, templates and prompts, read now (a server that fails is named in errors). */
  async catalog(options: RequestOptions): Promise<McpCatalog> {
    const ready = [...this.servers.values()].filter((running) => running.state === 'ready');
    const read = await Promise.all(
      ready.map(async (running) => {
        try {
          return { server: running.config.id, catalog: await running.connection!.catalog(options) };
        } catch (error) {
          return { server: running.config.id, error: error instanceof Error ? error.message : String(error) };
        }
      }),
    );
    const catalog: McpCatalog = { resources: [], templates: [], prompts: [], errors: [] };
    for (const one of read) {
      if ('error' in one) catalog.errors.push({ server: one.server, message: one.error });
      else {
        catalog.resources.push(...one.catalog.resources);
        catalog.templates.push(...one.catalog.templates);
        catalog.prompts.push(...one.catalog.prompts);
      }
    }
    return catalog;
  }

  readResource(server: string, uri: string, options: RequestOptions): Promise<Result<ReadResourceResult>> {
    return this.request(server, `the resource ${uri}`, (connection) => connection.readResource(uri, options));
  }

  getPrompt(
    server: string,
    name: string,
    args: Record<string, string>,
    options: RequestOptions,
  ): Promise<Result<GetPromptResult>> {
    return this.request(server, `the prompt ${name}`, (connection) => connection.getPrompt(name, args, options));
  }

  /**
   * Another workspace was opened. A stdio server starts again (its sandbox holds the workspace); a
   * Streamable HTTP server keeps its session and is told its roots changed (notifications/roots/list_changed).
   */
  async workspaceChanged(): Promise<void> {
    await Promise.all(
      [...this.servers.values()].map(async (running) => {
        if (!running.config.enabled) return;
        if (running.config.transport === 'http' && running.state === 'ready' && running.connection !== undefined) {
          await running.connection.rootsChanged().catch((error: unknown) => {
            this.options.log?.(`${running.config.id}: could not tell it the roots changed: ${String(error)}`);
          });
          return;
        }
        await this.stop(running);
        running.crashes = 0;
        await this.start(running);
      }),
    );
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.servers.values()].map((running) => this.stop(running)));
    this.servers.clear();
  }

  /** One request to a ready server: mcp_server_unavailable when it is not, mcp_request_failed when it refuses. */
  private async request<T>(
    server: string,
    what: string,
    send: (connection: McpConnection) => Promise<T>,
  ): Promise<Result<T>> {
    const running = this.servers.get(server);
    const connection = running?.state === 'ready' ? running.connection : undefined;
    if (connection === undefined) {
      const state = running === undefined ? 'removed' : running.state;
      return err('mcp_server_unavailable', `The MCP server ${server} is not ready (${state}).`, { server, state });
    }
    try {
      return ok(await send(connection));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return err('mcp_request_failed', `The MCP server ${server} could not give ${what}: ${message}`, { server });
    }
  }

  private changed(): void {
    this.options.onChange?.();
  }

  private async stop(running: Running): Promise<void> {
    running.generation += 1;
    clearTimeout(running.timer);
    const connection = running.connection;
    running.connection = undefined;
    running.entries = [];
    if (!running.config.enabled) running.state = 'disabled';
    await connection?.close();
  }

  private async start(running: Running): Promise<void> {
    if (this.disposed) return;
    const generation = ++running.generation;
    const { config } = running;
    running.state = running.crashes > 0 ? 'restarting' : 'starting';
    running.error = undefined;
    this.changed();
    const current = () => running.generation === generation && !this.disposed;
    try {
      const connection = await openConnection({
        config,
        startProcess: () =>
          config.transport === 'stdio'
            ? this.options.startProcess(config, this.network(running))
            : Promise.reject(new Error('not a stdio server')),
        workspaceRoot: this.options.workspaceRoot,
        startTimeoutMs: this.options.startTimeoutMs ?? 30_000,
        version: this.options.version,
        ...(this.options.log === undefined ? {} : { log: this.options.log }),
        ...(config.transport === 'http' && this.options.authProvider !== undefined
          ? { authProvider: this.options.authProvider(config) }
          : {}),
        ...(this.options.logLevel === undefined ? {} : { logLevel: this.options.logLevel }),
        ...this.askers(running),
        onLost: (why, stderr) => {
          if (current()) this.lost(running, why, stderr);
        },
        onToolsChanged: () => {
          if (!current()) return;
          this.readTools(running);
          this.options.log?.(`${config.id}: tools changed (${running.entries.length} tools)`);
          this.changed();
        },
      });
      if (!current()) {
        await connection.close();
        return;
      }
      running.connection = connection;
      running.state = 'ready';
      running.readySince = Date.now();
      this.readTools(running);
      this.options.log?.(`${config.id}: ready with ${running.entries.length} tools`);
    } catch (error) {
      if (!current()) return;
      if (needsSignIn(error)) {
        // Not a crash: no restart until the user signs in (Sign in restarts it).
        running.state = 'needs-sign-in';
        this.options.log?.(`${config.id}: needs sign-in`);
        this.changed();
        return;
      }
      const stderr = error instanceof StartFailed ? error.stderr : [];
      this.lost(running, error instanceof Error ? error.message : String(error), stderr);
      return;
    }
    this.changed();
  }

  /** A stdio server's network: its grants as they are now, its refusals shown, its questions asked. */
  private network(running: Running): ServerNetwork {
    const { onHostQuestion } = this.options;
    return {
      hosts: () => (running.config.transport === 'stdio' ? running.config.grants.hosts : []),
      onRefused: (host) => {
        running.refusedHosts.add(host);
        this.changed();
      },
      ...(onHostQuestion === undefined
        ? {}
        : {
            ask: (target, signal) => {
              const asker = this.asker(running);
              const ended = asker.call === undefined ? undefined : running.ended.get(asker.call)?.signal;
              return onHostQuestion(asker, target, ended === undefined ? signal : AbortSignal.any([signal, ended]));
            },
          }),
    };
  }

  private asker(running: Running): ServerAsker {
    const call = running.inflight.at(-1);
    return { server: running.config.id, ...(call === undefined ? {} : { call }) };
  }

  private askers(running: Running): { onElicit?: ElicitHandler; onSample?: SampleHandler } {
    const { onElicit, onSample } = this.options;
    const asker = () => this.asker(running);
    return {
      ...(onElicit === undefined ? {} : { onElicit: (params, signal) => onElicit(asker(), params, signal) }),
      ...(onSample === undefined ? {} : { onSample: (params, signal) => onSample(asker(), params, signal) }),
    };
  }

  private readTools(running: Running): void {
    const { entries, skipped } = toolEntries(running.config.id, running.connection?.tools() ?? []);
    running.entries = entries;
    running.skipped = skipped;
  }

  /** The session ended on its own (or never began): restart after the next wait, or give up. */
  private lost(running: Running, why: string, stderr: readonly string[]): void {
    // The exit, the closed stream and the failed handshake each say so: one loss counts once.
    running.generation += 1;
    running.stderr = [...stderr];
    const connection = running.connection;
    running.connection = undefined;
    running.entries = [];
    void connection?.close();
    if (running.readySince !== undefined && Date.now() - running.readySince >= this.stableMs) running.crashes = 0;
    running.readySince = undefined;
    running.error = why;
    const wait = this.backoff[running.crashes];
    running.crashes += 1;
    if (wait === undefined || this.disposed) {
      running.state = 'failed';
      this.options.log?.(`${running.config.id}: failed: ${why}`);
    } else {
      running.state = 'restarting';
      this.options.log?.(`${running.config.id}: ${why}; restarting in ${wait} ms`);
      const generation = running.generation;
      running.timer = setTimeout(() => {
        if (running.generation === generation) void this.start(running);
      }, wait);
      running.timer.unref();
    }
    this.changed();
  }
}
