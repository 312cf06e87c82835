import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Logger } from '../../platform/logging/logger';
import { LOOPBACK_HOST, loopbackGuards } from '../server/loopback-guards';
import { createAccessToken } from '../server/token';

/** The one endpoint of the Streamable HTTP transport. */
export const MCP_HTTP_PATH = '/mcp';

export interface McpHttpOptions {
  /** 0 picks a free port. */
  readonly port: number;
  /** Absent: a fresh random token (printed at start). */
  readonly token?: string | undefined;
  /** A new Server for each MCP session (a Server serves one transport). */
  readonly createSession: () => Server;
  readonly logger: Logger;
}

export interface McpHttpServer {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res
    .writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers })
    .end(message);
}

const bearerOf = (authorization: string | undefined): string | undefined =>
  /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];

/**
 * MCP over Streamable HTTP on loopback, the option beside stdio. Every request passes browser
 * mode's checks (server/loopback-guards.ts): the Host header, the Origin and the token, here as
 * `Authorization: Bearer`. One difference: MCP clients are programs, which send no Origin at all;
 * an Origin that is present must be this server's own, so no web page can drive Familiar.
 */
export async function startMcpHttpServer(options: McpHttpOptions): Promise<McpHttpServer> {
  const token = options.token ?? createAccessToken();
  let port = options.port;
  const guards = loopbackGuards(token, () => port);
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  // Loaded here, not with the module: stdio, the default, never needs it (its HTTP stack: ~45 ms of each start).
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');

  const startSession = async (req: IncomingMessage, res: ServerResponse) => {
    const server = options.createSession();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => void sessions.set(id, transport),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
    // Anything but an initialize request starts no session: that Server has nothing to serve.
    if (transport.sessionId === undefined) await server.close();
  };

  const handleRequest = async (req: IncomingMessage, res: ServerResponse) => {
    if (!guards.hostAllowed(req.headers.host)) return refuse(res, 421, 'Unknown host');
    const url = new URL(req.url ?? '/', `http://${LOOPBACK_HOST}:${port}`);
    if (url.pathname !== MCP_HTTP_PATH) return refuse(res, 404, `Familiar serves MCP at ${MCP_HTTP_PATH}`);
    const origin = req.headers.origin;
    if (origin !== undefined && !guards.originAllowed(origin)) return refuse(res, 403, 'Forbidden origin');
    if (!guards.tokenAllowed(bearerOf(req.headers.authorization))) {
      return refuse(res, 401, 'Familiar needs its access token: Authorization: Bearer <the token it printed>.', {
        'www-authenticate': 'Bearer realm="familiar"',
      });
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = sessions.get(sessionId);
      if (transport === undefined) return refuse(res, 404, 'Unknown or ended MCP session: initialize again');
      return transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return refuse(res, 400, 'Start an MCP session with an initialize POST first');
    return startSession(req, res);
  };

  const http = createServer((req, res) => {
    handleRequest(req, res).catch((error: unknown) => {
      options.logger.error('MCP HTTP request failed', error);
      if (!res.headersSent) refuse(res, 500, 'Internal error');
      else res.destroy();
    });
  });
  await new Promise<void>((resolvePromise, reject) => {
    http.once('error', reject);
    http.listen(options.port, LOOPBACK_HOST, () => resolvePromise());
  });
  port = (http.address() as AddressInfo).port;

  return {
    url: `http://${LOOPBACK_HOST}:${port}${MCP_HTTP_PATH}`,
    port,
    token,
    async close() {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolvePromise) => http.close(() => resolvePromise()));
    },
  };
}

/**
 * `--http` may come without a port (node:util parseArgs wants a value for a string option): then
 * it means port 0, a free port, printed at start.
 */
export function withHttpPortDefault(args: readonly string[]): string[] {
  return args.flatMap((arg, index) =>
    arg === '--http' && (args[index + 1] === undefined || args[index + 1]?.startsWith('-') === true)
      ? [arg, '0']
      : [arg],
  );
}

export function parseHttpPort(raw: string): number {
  const port = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--http takes a port from 0 to 65535 (0 or none: a free port), got "${raw}"`);
  }
  return port;
}
