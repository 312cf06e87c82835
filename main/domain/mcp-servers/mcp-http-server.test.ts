import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mcpServerConfigSchema } from '../../../shared/mcp-servers';
import { useMcpHost } from '../../test-support/mcp-host-kit';

/**
 * A Streamable HTTP server (the SDK's own server side, stateless, on 127.0.0.1): reached by URL
 * with the headers the user set, its tools listed and called like a stdio server's.
 */
const host = useMcpHost();
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

async function startHttpServer(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    seen.push(String(req.headers['authorization']));
    const mcp = new McpServer({ name: 'http-test', version: '1' });
    mcp.registerTool(
      'shout',
      { title: 'Shout', description: 'Upper-cases text', inputSchema: { text: z.string() } },
      ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }),
    );
    const transport = new StreamableHTTPServerTransport({});
    res.on('close', () => void transport.close());
    void mcp.connect(transport).then(() => transport.handleRequest(req, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen };
}

describe('a Streamable HTTP server', () => {
  it('is reached with its headers; its tools are listed and called', async () => {
    const { url, seen } = await startHttpServer();
    const { manager } = await host();
    manager.sync([
      mcpServerConfigSchema.parse({ id: 'remote', transport: 'http', url, headers: { Authorization: 'Bearer t0k' } }),
    ]);
    await manager.settled();
    expect(manager.statuses()[0]).toMatchObject({ state: 'ready', tools: 1, grants: [] });
    expect(manager.tools().map((tool) => [tool.name, tool.title])).toEqual([['remote__shout', 'Shout']]);
    const shouted = await manager.call(
      'remote',
      'shout',
      { text: 'quiet' },
      { signal: new AbortController().signal, timeoutMs: 10_000 },
    );
    expect(shouted.ok && shouted.value.content).toEqual([{ type: 'text', text: 'QUIET' }]);
    expect(new Set(seen)).toEqual(new Set(['Bearer t0k']));
  });

  it('an address where nothing listens fails with the reason, and is retried', async () => {
    const { url } = await startHttpServer();
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const { manager } = await host({ backoffMs: [20] });
    manager.sync([mcpServerConfigSchema.parse({ id: 'gone', transport: 'http', url })]);
    const until = Date.now() + 10_000;
    while (manager.statuses()[0]?.state !== 'failed' && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(manager.statuses()[0]?.state).toBe('failed');
    expect(manager.statuses()[0]?.error).toMatch(/fetch failed|ECONNREFUSED/);
  });
});
