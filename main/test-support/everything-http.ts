import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

interface EverythingFactory {
  readonly createServer: () => { server: McpServer; cleanup: (sessionId?: string) => void };
}

/** For tests (not shipped): server-everything over Streamable HTTP on 127.0.0.1. */
export interface EverythingHttp {
  readonly url: string;
  /** Every JSON-RPC message the server received, in order (a cancellation included). */
  readonly received: JSONRPCMessage[];
  /** The server of each session, oldest first (a test may add a tool to one while it runs). */
  readonly servers: McpServer[];
  close(): Promise<void>;
}

/**
 * The reference server's own factory (`createServer` of server-everything: every tool, its roots,
 * logging, elicitation and sampling) behind the SDK's Streamable HTTP transport, one session per
 * client, as its `streamableHttp` entry does. Hosted here rather than by that entry because the
 * entry listens on every interface of a fixed port; tests bind 127.0.0.1 on a free one.
 */
export async function startEverythingHttp(): Promise<EverythingHttp> {
  const where = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/server/index.js');
  const factory = (await import(pathToFileURL(where).href)) as EverythingFactory;
  const received: JSONRPCMessage[] = [];
  const servers: McpServer[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const cleanups: (() => void)[] = [];
  const http = createServer((req, res) => {
    void (async () => {
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (transport === undefined) {
        if (req.method !== 'POST' || id !== undefined) {
          res.writeHead(404).end();
          return;
        }
        const { server, cleanup } = factory.createServer();
        servers.push(server);
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sessionId) => void sessions.set(sessionId, created),
        });
        transport = created;
        await server.connect(created);
        // Seen after the SDK has wired itself to the transport: what the server itself receives.
        const handle = created.onmessage?.bind(created);
        created.onmessage = (message, extra) => {
          received.push(message);
          handle?.(message, extra);
        };
        cleanups.push(() => {
          cleanup(created.sessionId);
          void server.close();
        });
      }
      await transport.handleRequest(req, res);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    received,
    servers,
    close: async () => {
      for (const cleanup of cleanups.splice(0)) cleanup();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
