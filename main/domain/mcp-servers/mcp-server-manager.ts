import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpCatalog } from '../../../shared/mcp-attachments';
import type { McpServerConfig, McpServerStatus } from '../../../shared/mcp-servers';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { needsSignIn } from './mcp-connection';
import type { CallOptions, McpConnection } from './mcp-connection';
import { onlyHostsAdded, sameConfig } from './mcp-server-config-change';
import { McpServerLifecycle } from './mcp-server-lifecycle';
import type { McpServerManagerOptions } from './mcp-server-manager-options';
import { newRunningServer, statusOf } from './mcp-server-status';
import type { RunningServer } from './mcp-server-status';
import type { RequestOptions } from './mcp-resources';
import type { McpToolEntry } from './mcp-tool-list';

// The manager's options and its grants wording live in files beside it; importers still find them here.
export type { McpServerManagerOptions, ServerAsker } from './mcp-server-manager-options';
export { describeGrants } from './mcp-server-status';

/**
 * The user's MCP servers (issue 29): every enabled one starts at once and in parallel, in the
 * background (nothing waits for them: the first message goes while they start), and is watched:
 * a crash restarts it after a growing wait, a hang is timed out, and the status says which.
 */
export class McpServerManager {
  private readonly servers = new Map<string, RunningServer>();
  /** Starts, stops and restarts each server (mcp-server-lifecycle.ts). */
  private readonly lifecycle: McpServerLifecycle;
  private disposed = false;

  constructor(private readonly options: McpServerManagerOptions) {
    this.lifecycle = new McpServerLifecycle(options, () => this.disposed);
  }

  /** Brings the running servers in line with the settings: new ones start, removed or changed ones stop. */
  sync(configs: readonly McpServerConfig[]): void {
    const wanted = new Map(configs.map((config) => [config.id, config]));
    // Nothing configured and nothing running: nothing to say (a workspace switch with no servers).
    if (configs.length === 0 && this.servers.size === 0) return;
    for (const [id, running] of this.servers) {
      const next = wanted.get(id);
      if (next === undefined) {
        void this.lifecycle.stop(running);
        this.servers.delete(id);
      } else if (onlyHostsAdded(next, running.config)) {
        running.config = next;
        // A refused host allowed since is no longer shown as refused.
        const now = next.transport === 'stdio' ? next.grants.hosts : [];
        for (const host of running.refusedHosts) {
          if (now.includes(host) || now.includes(host.replace(/:\d+$/, ''))) running.refusedHosts.delete(host);
        }
      } else if (!sameConfig(next, running.config)) {
        void this.lifecycle.stop(running);
        this.servers.delete(id);
      }
    }
    for (const config of configs) {
      if (this.servers.has(config.id)) continue;
      const running = newRunningServer(config);
      this.servers.set(config.id, running);
      if (config.enabled) void this.lifecycle.start(running);
    }
    this.changed();
  }

  statuses(): McpServerStatus[] {
    return [...this.servers.values()].map((running) => statusOf(running));
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
    await this.lifecycle.stop(running);
    running.crashes = 0;
    await this.lifecycle.start(running);
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
        await this.lifecycle.stop(running);
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
        await this.lifecycle.stop(running);
        running.crashes = 0;
        await this.lifecycle.start(running);
      }),
    );
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.servers.values()].map((running) => this.lifecycle.stop(running)));
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
}
