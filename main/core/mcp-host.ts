import { join } from 'node:path';
import { importMcpServers } from '../../shared/mcp-servers';
import type { McpServerConfig } from '../../shared/mcp-servers';
import type { FamiliarError } from '../../shared/errors';
import { ok } from '../../shared/result';
import { createMcpApprovals } from '../domain/mcp-servers/mcp-approvals';
import type { McpApprovals } from '../domain/mcp-servers/mcp-approvals';
import { McpServerManager } from '../domain/mcp-servers/mcp-server-manager';
import { startMcpServerProcess } from '../domain/mcp-servers/mcp-server-process';
import type { McpToolEntry } from '../domain/mcp-servers/mcp-tool-list';
import type { Handlers } from '../platform/ipc/dispatcher';
import type { EventHub } from '../platform/ipc/event-hub';
import type { Logger } from '../platform/logging/logger';
import type { HostFolders } from '../platform/processes/process-rules';
import type { SettingsStore } from '../platform/storage/settings-store';
import type { AnyTool } from '../tools/define-tool';
import { mcpServerTool } from '../tools/mcp/mcp-server-tool';

/** The composer's menus wait this long for a server's lists; a slower server is named in errors. */
const CATALOG_TIMEOUT_MS = 5000;

export interface McpHostOptions {
  readonly settings: SettingsStore;
  readonly events: EventHub;
  readonly logger: Logger;
  readonly version: string;
  /** Familiar's home: each server's data folder is `<home>/mcp-servers/<id>`. */
  readonly home: string;
  /** The folders as a confined process gets them, at the time a server starts. */
  readonly folders: () => Promise<HostFolders>;
  readonly workspaceRoot: () => string;
  /** Whether servers start at all: only where a person can answer their approvals (not MCP mode). */
  readonly start: boolean;
  readonly startTimeoutMs?: number;
}

export interface McpHost {
  readonly manager: McpServerManager;
  readonly approvals: McpApprovals;
  /** The ready servers' tools, as Familiar tools (the same objects while a server's list is unchanged). */
  tools(): readonly AnyTool[];
  /** A `server__tool` name of a configured server that is not ready: mcp_server_unavailable, saying why. */
  missing(name: string): FamiliarError | undefined;
  readonly handlers: Pick<
    Handlers,
    'mcpServers.list' | 'mcpServers.restart' | 'mcpServers.import' | 'mcpServers.catalog'
  >;
  /** Told whenever a server's status or tools change (the tools panel follows). */
  subscribe(listener: () => void): void;
  /** Another workspace was opened: each server starts again with it as its root and sandbox. */
  workspaceChanged(): void;
  dispose(): Promise<void>;
}

/** Familiar as an MCP host (issue 29): the user's servers from settings, their tools, their approvals. */
export function createMcpHost(options: McpHostOptions): McpHost {
  const { settings } = options;
  const state = () => ({ servers: manager.statuses() });
  const listeners = new Set<() => void>();
  const manager = new McpServerManager({
    startProcess: async (config, onRefused) => {
      const folders = await options.folders();
      return startMcpServerProcess(
        config,
        {
          folders: () => folders,
          dataRoot: join(options.home, 'mcp-servers'),
          passEnvironment: () => settings.get().commands.passEnvironment,
        },
        onRefused,
      );
    },
    workspaceRoot: options.workspaceRoot,
    version: options.version,
    ...(options.startTimeoutMs === undefined ? {} : { startTimeoutMs: options.startTimeoutMs }),
    log: (message) => options.logger.info(`mcp: ${message}`),
    onChange: () => {
      options.events.emit('mcpServers.changed', state());
      for (const listener of listeners) listener();
    },
  });
  const approvals = createMcpApprovals({
    servers: () => settings.get().mcp.servers,
    alwaysAllowed: () => settings.get().mcp.alwaysAllowed,
    saveAlwaysAllowed: async (alwaysAllowed) => void (await settings.update({ mcp: { alwaysAllowed } })),
    runsUnconfined: (server) => manager.statuses().find((status) => status.id === server)?.confined === false,
  });
  const made = new WeakMap<McpToolEntry, AnyTool>();
  const call = manager.call.bind(manager);
  const tools = () =>
    manager.tools().map((entry) => {
      let tool = made.get(entry);
      if (tool === undefined) {
        tool = mcpServerTool(entry, call);
        made.set(entry, tool);
      }
      return tool;
    });
  const wanted = (): readonly McpServerConfig[] => (options.start ? settings.get().mcp.servers : []);
  const unsubscribe = settings.subscribe((next, previous) => {
    if (JSON.stringify(next.mcp.servers) !== JSON.stringify(previous.mcp.servers)) manager.sync(wanted());
  });
  // In the background: the first message does not wait for any server.
  manager.sync(wanted());
  return {
    manager,
    approvals,
    tools,
    missing(name) {
      const at = name.indexOf('__');
      if (at <= 0) return undefined;
      const status = manager.statuses().find((server) => server.id === name.slice(0, at));
      if (status === undefined || status.state === 'ready') return undefined;
      const why = status.state === 'disabled' ? 'switched off in Settings → MCP servers' : status.state;
      return {
        code: 'mcp_server_unavailable',
        message: `The MCP server "${status.id}" is not available (${why})${status.error === undefined ? '' : `: ${status.error}`}. Do not retry its tools now.`,
        details: { server: status.id, state: status.state },
      };
    },
    handlers: {
      'mcpServers.list': () => ok(state()),
      'mcpServers.catalog': async () => ok(await manager.catalog({ timeoutMs: CATALOG_TIMEOUT_MS })),
      'mcpServers.restart': async ({ id }) => {
        const restarted = await manager.restart(id);
        return restarted.ok ? ok(state()) : restarted;
      },
      'mcpServers.import': async ({ text }) => {
        const imported = importMcpServers(text);
        if (!imported.ok) return { ok: false, error: { code: 'invalid_payload', message: imported.message } };
        const kept = settings.get().mcp.servers;
        const taken = new Set(kept.map((server) => server.id));
        const added = imported.servers.map((server) => {
          let id = server.id;
          for (let n = 2; taken.has(id); n++) id = `${server.id.slice(0, 36)}-${n}`;
          taken.add(id);
          return { ...server, id };
        });
        await settings.update({ mcp: { servers: [...kept, ...added] } });
        return ok({ added, skipped: imported.skipped });
      },
    },
    subscribe: (listener) => void listeners.add(listener),
    workspaceChanged() {
      manager.sync([]);
      manager.sync(wanted());
    },
    async dispose() {
      unsubscribe();
      await manager.dispose();
    },
  };
}
