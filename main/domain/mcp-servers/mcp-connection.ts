import { extractWWWAuthenticateParams, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type {
  CallToolResult,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  GetPromptResult,
  LoggingLevel,
  ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { McpServerConfig } from '../../../shared/mcp-servers';
import type { ServerProcess } from '../../platform/processes/server-process';
import { SignInNeeded } from './mcp-oauth-provider';
import { getPrompt, readCatalog, readResource } from './mcp-resources';
import type { RequestOptions, ServerCatalog } from './mcp-resources';
import { StdioPipeTransport } from './stdio-pipe-transport';

const MAX_TOOL_PAGES = 20;
const lenientToolList = z.object({ tools: z.array(z.unknown()).max(2000), nextCursor: z.string().optional() });

/** Lines of stderr kept per server: what the status shows when it fails. */
const STDERR_LINES = 20;

/** The SDK's OAuth provider, told of each 401/403 the server answers (what the next sign-in must ask for). */
export type McpAuthProvider = OAuthClientProvider & { rememberChallenge?(response: Response): Promise<void> };

/** A server asks the user something (elicitation/create): form or URL mode. */
export type ElicitHandler = (params: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;
/** A server asks the model (sampling/createMessage). */
export type SampleHandler = (
  params: CreateMessageRequest['params'],
  signal: AbortSignal,
) => Promise<CreateMessageResult>;

export interface ConnectionOptions {
  readonly config: McpServerConfig;
  /** stdio: the server started in its sandbox (the manager's part). */
  readonly startProcess: () => Promise<ServerProcess>;
  /** The open workspace: the one root a server is told of. */
  readonly workspaceRoot: () => string;
  /** The handshake and the first tool list must come within this. */
  readonly startTimeoutMs: number;
  /** Told when the session ends without being asked to (the process exited, the stream broke). */
  readonly onLost: (why: string, stderr: readonly string[]) => void;
  /** The server said its tools changed: the list was read again. */
  readonly onToolsChanged: () => void;
  readonly log?: (message: string) => void;
  readonly version: string;
  /** Streamable HTTP: OAuth sign-in (saved tokens, refreshed; mcp-oauth-provider.ts). */
  readonly authProvider?: McpAuthProvider;
  /** The least a server's own log messages (notifications/message) must be to be sent (default info). */
  readonly logLevel?: LoggingLevel;
  /** The server asks the user something (elicitation/create): form or URL mode. */
  readonly onElicit?: ElicitHandler;
  /** The server asks the model (sampling/createMessage); absent: the capability is not declared. */
  readonly onSample?: SampleHandler;
}

/** Which call of which conversation a server's call was made for (a question it asks meanwhile belongs there). */
export interface CallContext {
  readonly conversationId: string;
  readonly toolCallId: string;
  /** `server__tool`. */
  readonly name: string;
}

export interface CallOptions {
  readonly signal: AbortSignal;
  readonly context?: CallContext;
  readonly timeoutMs: number;
  readonly onProgress?: (done: number, total?: number, message?: string) => void;
}

/** One live session with one server: started, its tools read, calls made; closed once. */
export interface McpConnection {
  readonly confined: boolean;
  /** The tools as the server listed them, unchecked: mcp-tool-list.ts checks each on its own. */
  tools(): readonly unknown[];
  stderr(): readonly string[];
  call(tool: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult>;
  /** Its resources, resource templates and prompts (mcp-resources.ts). */
  catalog(options: RequestOptions): Promise<ServerCatalog>;
  readResource(uri: string, options: RequestOptions): Promise<ReadResourceResult>;
  getPrompt(name: string, args: Record<string, string>, options: RequestOptions): Promise<GetPromptResult>;
  /** The workspace changed: the server is told its roots changed (it asks roots/list again). */
  rootsChanged(): Promise<void>;
  close(): Promise<void>;
}

/** Rejects after `ms` with `message`, unless `work` settles first. */
async function within<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function openConnection(options: ConnectionOptions): Promise<McpConnection> {
  const { config } = options;
  const stderrLines: string[] = [];
  let closing = false;
  let process: ServerProcess | undefined;
  let transport: Transport;
  /** The server's last 403 asked for more scopes (step-up): a refusal only a new sign-in can lift. */
  let moreAccessAsked = false;
  if (config.transport === 'stdio') {
    process = await options.startProcess();
    let partial = '';
    process.child.stderr.setEncoding('utf8');
    process.child.stderr.on('data', (text: string) => {
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') stderrLines.push(line.slice(0, 500));
      stderrLines.splice(0, Math.max(0, stderrLines.length - STDERR_LINES));
    });
    transport = new StdioPipeTransport({ stdin: process.child.stdin, stdout: process.child.stdout });
  } else {
    const { authProvider } = options;
    transport = new StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: { ...config.headers } },
      ...(authProvider === undefined
        ? {}
        : {
            authProvider,
            fetch: async (input: string | URL, init?: RequestInit) => {
              const response = await fetch(input, init);
              if (response.status === 403) {
                moreAccessAsked = extractWWWAuthenticateParams(response).error === 'insufficient_scope';
              }
              if (response.status === 401 || response.status === 403) await authProvider.rememberChallenge?.(response);
              return response;
            },
          }),
    });
  }
  const client = new Client(
    { name: 'familiar', version: options.version },
    {
      capabilities: {
        roots: { listChanged: true },
        ...(options.onElicit === undefined ? {} : { elicitation: { form: {}, url: {} } }),
        ...(options.onSample === undefined ? {} : { sampling: {} }),
      },
    },
  );
  let tools: unknown[] = [];
  // Read leniently: the SDK's own listTools() refuses the whole list for one tool's bad schema.
  const listTools = async () => {
    const all: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const listed = await client.request(
        { method: 'tools/list', ...(cursor === undefined ? {} : { params: { cursor } }) },
        lenientToolList,
      );
      all.push(...listed.tools);
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    return all;
  };
  client.setRequestHandler(ListRootsRequestSchema, () =>
    Promise.resolve({ roots: [{ uri: pathToFileURL(options.workspaceRoot()).href, name: 'workspace' }] }),
  );
  const { onElicit, onSample } = options;
  if (onElicit !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => onElicit(request.params, extra.signal));
  }
  if (onSample !== undefined) {
    client.setRequestHandler(CreateMessageRequestSchema, (request, extra) => onSample(request.params, extra.signal));
  }
  // The server's own log lines go to Familiar's log, named by the server (never to the model).
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    const { level, logger, data } = notification.params;
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    options.log?.(`${config.id}: [${level}]${logger === undefined ? '' : ` ${logger}:`} ${text.slice(0, 2000)}`);
    return Promise.resolve();
  });
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    try {
      tools = await listTools();
      options.onToolsChanged();
    } catch (error) {
      options.log?.(`${config.id}: could not read the changed tool list: ${String(error)}`);
    }
  });
  client.onerror = (error) => options.log?.(`${config.id}: ${error.message}`);
  // Until the handshake is done a failure is the start's own error (thrown below), not a loss.
  let started = false;
  client.onclose = () => {
    if (started && !closing) options.onLost(lastWords(stderrLines) ?? 'the connection closed', [...stderrLines]);
  };
  // 'close', not 'exit': by then its last stderr lines have been read.
  process?.child.once('close', (code, signal) => {
    if (started && !closing) options.onLost(`exited (${signal ?? `code ${code}`})`, [...stderrLines]);
  });
  const close = async () => {
    if (closing) return;
    closing = true;
    await client.close().catch(() => undefined);
    process?.stop();
  };
  try {
    await within(
      (async () => {
        await client.connect(transport, { timeout: options.startTimeoutMs });
        tools = client.getServerCapabilities()?.tools === undefined ? [] : await listTools();
        if (client.getServerCapabilities()?.logging !== undefined) {
          await client.setLoggingLevel(options.logLevel ?? 'info');
        }
      })(),
      options.startTimeoutMs,
      `did not answer within ${Math.round(options.startTimeoutMs / 1000)} s`,
    );
    started = true;
  } catch (error) {
    await close();
    throw new StartFailed(error instanceof Error ? error.message : String(error), [...stderrLines], error);
  }
  return {
    confined: process?.confined ?? false,
    tools: () => tools,
    stderr: () => [...stderrLines],
    async call(tool, args, callOptions) {
      try {
        const result = await client.callTool({ name: tool, arguments: args }, CallToolResultSchema, {
          signal: callOptions.signal,
          timeout: callOptions.timeoutMs,
          ...(callOptions.onProgress === undefined
            ? {}
            : {
                onprogress: (progress) => callOptions.onProgress?.(progress.progress, progress.total, progress.message),
              }),
        });
        return result as CallToolResult;
      } catch (error) {
        // Step-up the SDK could not do in the background (a refreshed token keeps its old scopes).
        if (moreAccessAsked && error instanceof StreamableHTTPError && error.code === 403) throw new SignInNeeded();
        throw error;
      }
    },
    catalog: (requestOptions) => readCatalog(client, config.id, requestOptions),
    readResource: (uri, requestOptions) => readResource(client, uri, requestOptions),
    getPrompt: (name, args, requestOptions) => getPrompt(client, name, args, requestOptions),
    rootsChanged: () => client.sendRootsListChanged(),
    close,
  };
}

/** A server that could not be started or greeted, with what it said on stderr meanwhile. */
export class StartFailed extends Error {
  constructor(
    message: string,
    readonly stderr: readonly string[],
    cause: unknown,
  ) {
    super(message, { cause });
  }
}

const lastWords = (lines: readonly string[]): string | undefined => lines.at(-1);

/** The server wants the user to sign in (first, again, or for more access): nothing but Sign in helps. */
export const needsSignIn = (error: unknown): boolean => {
  const cause = error instanceof StartFailed ? error.cause : error;
  return cause instanceof SignInNeeded || cause instanceof UnauthorizedError;
};
