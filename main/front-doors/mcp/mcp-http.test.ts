import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createStderrLogger } from '../../platform/logging/logger';
import { useTempDirs } from '../../test-support/temp-dir';
import { startMcpHttpServer } from './mcp-http';
import type { McpHttpServer } from './mcp-http';
import { createMcpSessions } from './mcp-session';
import { createTestCore } from '../../test-support/test-core';

const tempDir = useTempDirs();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(): Promise<McpHttpServer> {
  const workspace = await tempDir();
  await writeFile(join(workspace, 'notes.md'), 'over http\n');
  const logger = createStderrLogger('test', () => undefined);
  const core = await createTestCore({
    home: await tempDir(),
    workspace,
    logger,
    approvalMode: 'refuse',
  });
  cleanups.push(() => core.dispose('test over'));
  const sessions = createMcpSessions({
    core,
    version: '0.0.0-test',
    conversationId: 'mcp',
    fixedWorkspace: true,
    logger,
  });
  const server = await startMcpHttpServer({ port: 0, createSession: () => sessions.create(), logger });
  cleanups.push(() => server.close());
  return server;
}

/** A raw initialize POST, as a client (or a web page) would send it. */
const initialize = (url: string, headers: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });

describe('MCP over Streamable HTTP', () => {
  it('serves the official client that presents the bearer token', async () => {
    const server = await start();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 'http-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { authorization: `Bearer ${server.token}` } },
      }),
    );
    cleanups.push(() => client.close());
    const read = await client.callTool({ name: 'read_file', arguments: { path: 'notes.md' } });
    expect(read).toMatchObject({ structuredContent: { content: 'over http' } });
  });

  it('answers 401 without the token or with a wrong one, and 403 to a foreign Origin', async () => {
    const server = await start();
    expect((await initialize(server.url, {})).status).toBe(401);
    expect((await initialize(server.url, { authorization: 'Bearer not-the-token' })).status).toBe(401);
    expect((await initialize(server.url, { authorization: server.token })).status).toBe(401);
    const foreign = await initialize(server.url, {
      authorization: `Bearer ${server.token}`,
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);
    // The server's own origin is not foreign; a program sends no Origin at all.
    const own = await initialize(server.url, {
      authorization: `Bearer ${server.token}`,
      origin: `http://127.0.0.1:${server.port}`,
    });
    expect(own.status).toBe(200);
    expect(own.headers.get('mcp-session-id')).toEqual(expect.any(String));
    await own.body?.cancel();
  });
});
