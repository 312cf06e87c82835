import { request } from 'node:http';
import { connect as netConnect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useClosers } from '../../test-support/closers';
import { startLoopbackServer } from '../../test-support/loopback-server';
import { openBridgeFor, openLoopbackBridge } from './network-bridge';
import type { HostTarget } from './network-proxy';

/**
 * macOS's way to the network for a confined command (Seatbelt opens only this port): a TCP door on
 * 127.0.0.1 into the same gated proxy Linux reaches through socat. It runs the same on Linux, so it
 * is tested for real here; every packet goes to 127.0.0.1 (the proxy's connect hook turns each
 * allowed connection to the loopback server).
 */
const closeAfter = useClosers();

function get(port: number, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: url, headers: { host: new URL(url).host } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject).end();
  });
}

describe('openLoopbackBridge', () => {
  it('carries a request from its loopback port through the gate, and names the port in the proxy variables', async () => {
    const server = await startLoopbackServer();
    const asked: HostTarget[] = [];
    const bridge = await openLoopbackBridge({
      gate: (target) => {
        asked.push(target);
        return Promise.resolve(
          target.host === '127.0.0.1' ? { allowed: true, local: false } : { allowed: false, reason: 'no' },
        );
      },
      connect: () => netConnect({ host: '127.0.0.1', port: server.port }),
    });
    closeAfter(
      () => server.close(),
      () => bridge.close(),
    );
    const port = bridge.loopbackPort!;
    expect(port).toBeGreaterThan(0);
    expect(bridge.environment).toMatchObject({
      HTTP_PROXY: `http://127.0.0.1:${port}`,
      https_proxy: `http://127.0.0.1:${port}`,
      NO_PROXY: '',
    });
    expect(bridge.wrap(['rg', '-n'])).toEqual(['rg', '-n']);
    expect(bridge.bwrapMounts).toEqual([]);
    expect(await get(port, `http://127.0.0.1:${server.port}/page`)).toEqual({ status: 200, body: 'hello from /page' });
    expect((await get(port, 'http://refused.example/')).status).toBe(403);
    expect(asked.map((target) => target.host)).toEqual(['127.0.0.1', 'refused.example']);
    expect(bridge.decisions().map((decision) => [decision.host, decision.allowed])).toEqual([
      ['127.0.0.1', true],
      ['refused.example', false],
    ]);
  });

  it('closes its port with the proxy', async () => {
    const bridge = await openLoopbackBridge({ gate: () => Promise.resolve({ allowed: false, reason: 'no' }) });
    const port = bridge.loopbackPort!;
    await bridge.close();
    await expect(get(port, 'http://x.example/')).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('openBridgeFor', () => {
  const options = { gate: () => Promise.resolve({ allowed: false as const, reason: 'no' }) };
  it('Seatbelt: a loopback bridge; bubblewrap without socat, unconfined or no network asked: none', async () => {
    const seatbelt = await openBridgeFor({ confined: true, tool: 'seatbelt', path: '/usr/bin/sandbox-exec' }, options);
    closeAfter(() => seatbelt!.close());
    expect(seatbelt?.loopbackPort).toBeGreaterThan(0);
    expect(
      await openBridgeFor({ confined: true, tool: 'bubblewrap', path: '/usr/bin/bwrap', socat: undefined }, options),
    ).toBeUndefined();
    expect(await openBridgeFor({ confined: false, reason: 'r', fix: 'f' }, options)).toBeUndefined();
    expect(
      await openBridgeFor({ confined: true, tool: 'seatbelt', path: '/usr/bin/sandbox-exec' }, undefined),
    ).toBeUndefined();
  });
});
