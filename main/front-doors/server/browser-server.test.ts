import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Core } from '../../core/create-core';
import { useTempDirs } from '../../test-support/temp-dir';
import { headerOnlyDirectives, pageDirectives } from '../../../shared/content-security-policy';
import { startBrowserServer } from './browser-server';
import type { BrowserServer } from './browser-server';
import { createTestCore } from '../../test-support/test-core';

const tempDir = useTempDirs();
let running: { server: BrowserServer; core: Core } | undefined;

afterEach(async () => {
  await running?.server.close();
  running = undefined;
});

async function start() {
  const home = await tempDir();
  const rendererDir = join(home, 'renderer');
  await mkdir(join(rendererDir, 'assets'), { recursive: true });
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Familiar</title>');
  await writeFile(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  const core = await createTestCore({
    home,
  });
  const server = await startBrowserServer({ dispatch: core.dispatch, events: core.events, rendererDir, port: 0 });
  running = { server, core };
  return { server, core, home };
}

const origin = (server: BrowserServer) => `http://127.0.0.1:${server.port}`;

/** Opens a socket and resolves with the first thing that happens to it. */
function connect(url: string, headers: Record<string, string>) {
  const socket = new WebSocket(url, { headers });
  return new Promise<{ socket: WebSocket; outcome: 'open' | number }>((resolve) => {
    socket.once('open', () => resolve({ socket, outcome: 'open' }));
    socket.once('unexpected-response', (_req, res) => resolve({ socket, outcome: res.statusCode ?? 0 }));
    socket.once('error', () => resolve({ socket, outcome: -1 }));
  });
}

function nextMessage(socket: WebSocket): Promise<unknown> {
  return new Promise((resolve) => socket.once('message', (data: Buffer) => resolve(JSON.parse(data.toString()))));
}

describe('browser server', () => {
  it('serves the page only with the token', async () => {
    const { server } = await start();
    expect((await fetch(server.url)).status).toBe(200);
    expect((await fetch(`${origin(server)}/`)).status).toBe(401);
    expect((await fetch(`${origin(server)}/?token=wrong`)).status).toBe(401);
    expect((await fetch(`${origin(server)}/assets/app.js`)).status).toBe(200);
    const page = await fetch(server.url);
    // The page's one policy, as the desktop window sends it, with the bridge's own origins named.
    const policy = (page.headers.get('content-security-policy') ?? '').split('; ');
    expect(policy).toEqual([
      ...pageDirectives.map((directive) =>
        directive === "connect-src 'self'"
          ? `connect-src 'self' ws://127.0.0.1:${server.port} ws://localhost:${server.port}`
          : directive,
      ),
      ...headerOnlyDirectives,
    ]);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('bridges a contract call over the socket with the token and the right origin', async () => {
    const { server, home } = await start();
    const { socket, outcome } = await connect(`ws://127.0.0.1:${server.port}/bridge?token=${server.token}`, {
      origin: origin(server),
    });
    expect(outcome).toBe('open');
    const reply = nextMessage(socket);
    socket.send(JSON.stringify({ kind: 'call', id: 7, name: 'app.info', input: {} }));
    expect(await reply).toMatchObject({
      kind: 'result',
      id: 7,
      result: { ok: true, value: { mode: 'browser', homePath: home, workspacePath: join(home, 'workspace') } },
    });
    const unknown = nextMessage(socket);
    socket.send(JSON.stringify({ kind: 'call', id: 8, name: 'fs.readAnything', input: {} }));
    expect(await unknown).toMatchObject({ id: 8, result: { ok: false, error: { code: 'unknown_call' } } });
    socket.close();
  });

  it('refuses sockets without the token, from another origin or for another host', async () => {
    const { server } = await start();
    const base = `ws://127.0.0.1:${server.port}/bridge`;
    expect((await connect(base, { origin: origin(server) })).outcome).toBe(401);
    expect((await connect(`${base}?token=x${server.token}`, { origin: origin(server) })).outcome).toBe(401);
    expect((await connect(`${base}?token=${server.token}`, { origin: 'https://evil.example' })).outcome).toBe(403);
    expect(
      (await connect(`${base}?token=${server.token}`, { origin: origin(server), host: 'evil.example' })).outcome,
    ).toBe(421);
  });

  it('closes a socket that sends a malformed frame', async () => {
    const { server } = await start();
    const { socket } = await connect(`ws://127.0.0.1:${server.port}/bridge?token=${server.token}`, {
      origin: origin(server),
    });
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send('{"kind":"shell","command":"rm -rf /"}');
    expect(await closed).toBe(1008);
  });

  it('pushes events to connected pages', async () => {
    const { server, core } = await start();
    const { socket } = await connect(`ws://127.0.0.1:${server.port}/bridge?token=${server.token}`, {
      origin: origin(server),
    });
    const message = nextMessage(socket);
    core.events.emit('app.shutdown', { reason: 'test' });
    expect(await message).toEqual({ kind: 'event', name: 'app.shutdown', payload: { reason: 'test' } });
    socket.close();
  });
});
