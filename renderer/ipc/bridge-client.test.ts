import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket, WebSocketServer } from 'ws';
import type { BridgeClient } from './bridge-client';
import { createBridgeClient } from './bridge-client';

const servers: WebSocketServer[] = [];
const clients: BridgeClient[] = [];
afterEach(() => {
  clients.splice(0).forEach((client) => client.close());
  servers.splice(0).forEach((server) => server.close());
});

/** A scripted peer speaking the bridge's frames: answers app.info, pushes one event on connect. */
async function scriptedServer() {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  server.on('connection', (socket) => {
    socket.send(JSON.stringify({ kind: 'event', name: 'app.shutdown', payload: { reason: 'hello' } }));
    socket.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as { id: number; name: string };
      if (frame.name === 'hang') return;
      socket.send(JSON.stringify({ kind: 'result', id: frame.id, result: { ok: true, value: frame.name } }));
    });
  });
  const { port } = server.address() as { port: number };
  return { server, url: `ws://127.0.0.1:${port}/bridge` };
}

const open = (url: string) => {
  const client = createBridgeClient(url, (target) => new NodeWebSocket(target) as unknown as WebSocket);
  clients.push(client);
  return client;
};

const waitForStatus = (client: BridgeClient, status: string) =>
  new Promise<void>((resolve) => {
    if (client.status() === status) resolve();
    const stop = client.onStatus((next) => {
      if (next === status) {
        stop();
        resolve();
      }
    });
  });

describe('createBridgeClient', () => {
  it('queues calls made before the socket opens and answers them in order', async () => {
    const { url } = await scriptedServer();
    const client = open(url);
    expect(client.status()).toBe('connecting');
    const answers = await Promise.all([client.invoke('app.info', {}), client.invoke('app.info', {})]);
    expect(answers).toEqual([
      { ok: true, value: 'app.info' },
      { ok: true, value: 'app.info' },
    ]);
    expect(client.status()).toBe('open');
  });

  it('delivers events to listeners until they unsubscribe', async () => {
    const { url } = await scriptedServer();
    const client = open(url);
    const reasons: string[] = [];
    await new Promise<void>((resolve) => {
      const stop = client.on('app.shutdown', (payload) => {
        reasons.push(payload.reason);
        stop();
        resolve();
      });
    });
    expect(reasons).toEqual(['hello']);
  });

  it('answers pending calls with disconnected when the server goes away, then reconnects', async () => {
    const { server, url } = await scriptedServer();
    const client = open(url);
    await waitForStatus(client, 'open');
    const pending = client.invoke('hang' as 'app.info', {});
    for (const socket of server.clients) socket.terminate();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'disconnected' } });
    await waitForStatus(client, 'open');
    expect(await client.invoke('app.info', {})).toEqual({ ok: true, value: 'app.info' });
  });
});
