import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../../../shared/mcp-servers';
import type { HostTarget } from '../../platform/processes/network-proxy';
import type { ServerProcess } from '../../platform/processes/server-process';
import type { CallContext, ElicitHandler, McpAuthProvider, SampleHandler } from './mcp-connection';
import type { HostAnswer, ServerNetwork } from './mcp-server-network';

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
