import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpServerConfigSchema } from '../../../shared/mcp-servers';
import { startEverythingHttp } from '../../test-support/everything-http';
import type { EverythingHttp } from '../../test-support/everything-http';
import { everythingServer, stdioServer, useMcpHost } from '../../test-support/mcp-host-kit';
import { stopLongCall } from '../../test-support/mcp-long-call';
import type { McpServerManager } from './mcp-server-manager';
import type { ServerAsker } from './mcp-server-manager';

/**
 * The client side of the protocol against the reference server nobody here wrote
 * (@modelcontextprotocol/server-everything), over stdio and over Streamable HTTP on 127.0.0.1.
 */
const host = useMcpHost();
const https: EverythingHttp[] = [];
afterEach(async () => {
  await Promise.all(https.splice(0).map((server) => server.close()));
});
const call = { signal: new AbortController().signal, timeoutMs: 15_000 };

const transports = ['stdio', 'http'] as const;
type Transport = (typeof transports)[number];

async function start(manager: McpServerManager, transport: Transport): Promise<EverythingHttp | undefined> {
  if (transport === 'stdio') {
    manager.sync([stdioServer('everything', [everythingServer, 'stdio'])]);
    await manager.settled();
    return undefined;
  }
  const http = await startEverythingHttp();
  https.push(http);
  manager.sync([mcpServerConfigSchema.parse({ id: 'everything', transport: 'http', url: http.url })]);
  await manager.settled();
  return http;
}

const textOf = (result: Awaited<ReturnType<McpServerManager['call']>>): string =>
  result.ok
    ? result.value.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n')
    : `${result.error.code}: ${result.error.message}`;

async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A host handler for a server's question: it keeps what was asked (`asked`) and responds `answer`. */
function answering<const A>(answer: A) {
  const asked: unknown[] = [];
  const respond = (_asker: ServerAsker, params: unknown): Promise<A> => {
    asked.push(params);
    return Promise.resolve(answer);
  };
  return { asked, respond };
}

describe.each(transports)('the client side of the protocol over %s', (transport) => {
  it('declares the workspace as its one root, as a file:// URI', async () => {
    const { manager, workspace } = await host();
    await start(manager, transport);
    const roots = await manager.call('everything', 'get-roots-list', {}, call);
    expect(textOf(roots)).toContain(`URI: ${pathToFileURL(workspace).href}`);
  });

  it("sends the server's log messages to the log, named by the server, at the level set", async () => {
    const lines: string[] = [];
    const { manager } = await host({ log: (line) => lines.push(line) });
    await start(manager, transport);
    // The server logs at info when it has read the client's roots (about 350 ms after the handshake).
    await until(() => lines.some((line) => line.includes('Roots updated')));
    expect(lines).toContainEqual('everything: [info] everything-server: Roots updated: 1 root(s) received from client');
  });

  it('a form elicitation reaches the host with its schema; the answer goes back to the server', async () => {
    const asked: { asker: ServerAsker; params: unknown }[] = [];
    const { manager } = await host({
      onElicit: (asker, params) => {
        asked.push({ asker, params });
        return Promise.resolve({ action: 'accept', content: { name: 'Ada', check: true, integer: 7 } });
      },
    });
    await start(manager, transport);
    const context = { conversationId: 'conversation-1', toolCallId: 'call-1', name: 'everything__x' };
    const answered = await manager.call('everything', 'trigger-elicitation-request', {}, { ...call, context });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.asker).toEqual({ server: 'everything', call: context });
    expect(asked[0]?.params).toMatchObject({
      message: 'Please provide inputs for the following fields:',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' }, check: { type: 'boolean' } } },
    });
    expect(textOf(answered)).toContain('"name": "Ada"');
    expect(textOf(answered)).toContain('"integer": 7');
  });

  it('a URL elicitation reaches the host with its URL; declined goes back as declined', async () => {
    const decline = answering({ action: 'decline' });
    const { manager } = await host({ onElicit: decline.respond });
    await start(manager, transport);
    const answered = await manager.call(
      'everything',
      'trigger-url-elicitation',
      { url: 'https://example.com/authorize', message: 'Sign in to continue' },
      call,
    );
    expect(decline.asked).toEqual([expect.objectContaining({ mode: 'url', url: 'https://example.com/authorize' })]);
    expect(textOf(answered)).toContain('User declined to open the URL');
  });

  it('a sampling request reaches the host with its messages and token limit; the text goes back', async () => {
    const sample = answering({
      role: 'assistant',
      content: { type: 'text', text: 'sampled words' },
      model: 'scripted',
      stopReason: 'endTurn',
    });
    const { manager } = await host({ onSample: sample.respond });
    await start(manager, transport);
    const answered = await manager.call(
      'everything',
      'trigger-sampling-request',
      { prompt: 'hi', maxTokens: 50 },
      call,
    );
    expect(sample.asked).toEqual([
      expect.objectContaining({
        maxTokens: 50,
        messages: [{ role: 'user', content: { type: 'text', text: 'Resource trigger-sampling-request context: hi' } }],
      }),
    ]);
    expect(textOf(answered)).toContain('sampled words');
  });
});

describe('tools/list_changed', () => {
  // The re-read itself is proven over HTTP below: over stdio the conditional tools may already be in
  // the first list, so this one shows the notification is heard and the count matches the list.
  it("over stdio: the server's list_changed is heard; its capability-dependent tools are listed and counted", async () => {
    const lines: string[] = [];
    const { manager } = await host({
      log: (line) => lines.push(line),
      onElicit: () => Promise.resolve({ action: 'cancel' }),
    });
    await start(manager, 'stdio');
    // server-everything adds the tools that depend on the client's capabilities once the handshake
    // is done, and says so with notifications/tools/list_changed.
    await until(() => lines.some((line) => line.includes('tools changed')));
    expect(lines.filter((line) => line.includes('tools changed')).length).toBeGreaterThan(0);
    const names = manager.tools().map((tool) => tool.name);
    expect(names).toContain('everything__trigger-elicitation-request');
    expect(names).not.toContain('everything__trigger-sampling-request');
    expect(manager.statuses()[0]?.tools).toBe(names.length);
  });

  it('over Streamable HTTP: a tool the server adds later joins the list and the count', async () => {
    const { manager } = await host();
    const http = await start(manager, 'http');
    const before = manager.statuses()[0]?.tools ?? 0;
    // Over HTTP the server's conditional tools come before the client's event stream is open: its
    // own list_changed then has nowhere to go. A tool added while the session runs does.
    await until(() => false, 300);
    http?.servers[0]?.registerTool('added-later', { description: 'Added while the session runs' }, () => ({
      content: [{ type: 'text', text: 'late' }],
    }));
    await until(() => (manager.statuses()[0]?.tools ?? 0) > before);
    expect(manager.statuses()[0]?.tools).toBe(before + 1);
    expect(manager.tools().map((tool) => tool.name)).toContain('everything__added-later');
  });
});

describe('over Streamable HTTP only', () => {
  it('a changed workspace is announced with roots/list_changed; the server reads the new root', async () => {
    let root = await mkdtemp(join(tmpdir(), 'mcp-roots-a-'));
    const { manager } = await host({ workspaceRoot: () => root });
    const http = await start(manager, 'http');
    expect(textOf(await manager.call('everything', 'get-roots-list', {}, call))).toContain(pathToFileURL(root).href);
    root = await mkdtemp(join(tmpdir(), 'mcp-roots-b-'));
    await manager.workspaceChanged();
    expect(http?.received).toContainEqual(expect.objectContaining({ method: 'notifications/roots/list_changed' }));
    // The session is kept: the server asks roots/list again and lists the new folder.
    await until(() => false, 500);
    expect(manager.statuses()[0]?.state).toBe('ready');
    expect(textOf(await manager.call('everything', 'get-roots-list', {}, call))).toContain(pathToFileURL(root).href);
  });

  it('Stop sends notifications/cancelled for the request, and the server receives it', async () => {
    const { manager } = await host();
    const http = await start(manager, 'http');
    const stopped = await stopLongCall(manager, call);
    expect(stopped.outcome).toBe('aborted');
    expect(stopped.ms).toBeLessThan(5000);
    const request = http?.received.find(
      (message) =>
        'method' in message &&
        message.method === 'tools/call' &&
        message.params?.['name'] === 'trigger-long-running-operation',
    );
    await until(
      () =>
        http?.received.some((message) => 'method' in message && message.method === 'notifications/cancelled') === true,
    );
    const cancel = http?.received.find(
      (message) => 'method' in message && message.method === 'notifications/cancelled',
    );
    expect(request !== undefined && 'id' in request).toBe(true);
    expect(cancel).toMatchObject({ params: { requestId: request !== undefined && 'id' in request ? request.id : -1 } });
  });
});
