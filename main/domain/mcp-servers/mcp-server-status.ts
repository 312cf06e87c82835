import type { McpServerConfig, McpServerStatus } from '../../../shared/mcp-servers';
import type { CallContext, McpConnection } from './mcp-connection';
import type { McpToolEntry, SkippedTool } from './mcp-tool-list';

/** What the grants of a stdio server amount to, as the status line says them. */
export const describeGrants = (config: McpServerConfig): string[] =>
  config.transport === 'http'
    ? []
    : [
        config.grants.writeWorkspace ? 'workspace: read and write' : 'workspace: read only',
        'its own data folder',
        config.grants.hosts.length === 0 ? 'no network' : `network: ${config.grants.hosts.join(', ')}`,
      ];

/**
 * What the manager keeps of one configured server: its session and tools, its crashes, and what its
 * status shows. The manager and the lifecycle (mcp-server-lifecycle.ts) both write it.
 */
export interface RunningServer {
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

/** A server just configured: not started, nothing counted yet. */
export const newRunningServer = (config: McpServerConfig): RunningServer => ({
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
});

/** The status one server shows: a copy, so a caller cannot change the record through it. */
export const statusOf = (running: RunningServer): McpServerStatus => ({
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
});
