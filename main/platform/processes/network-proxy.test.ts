import { request } from 'node:http';
import { connect as netConnect } from 'node:net';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useClosers } from '../../test-support/closers';
import { startLoopbackServer } from '../../test-support/loopback-server';
import { addressClass } from './network-address';
import { parseAuthority, startNetworkProxy } from './network-proxy';
import type { HostGate, HostTarget, NetworkProxy, NetworkProxyOptions, ResolvedAddress } from './network-proxy';

/**
 * The proxy a confined command's requests go through. Every packet here goes to 127.0.0.1: the
 * private and metadata cases resolve through an injected lookup, and the connect hook records (and
 * turns to the loopback server) any connection the proxy would open, so a refusal is proven by the
 * hook never being called.
 */
const closeAfter = useClosers();

async function setup(gate: HostGate, options: Partial<NetworkProxyOptions> = {}) {
  const server = await startLoopbackServer();
  const connects: HostTarget[] = [];
  const proxy = await startNetworkProxy({
    gate,
    // Whatever address was chosen, the socket goes to the loopback server: nothing else is contacted.
    connect: (target) => {
      connects.push(target);
      return netConnect({ host: '127.0.0.1', port: server.port });
    },
    ...options,
  });
  closeAfter(
    () => server.close(),
    () => proxy.close(),
  );
  return { server, proxy, connects };
}

const socketOf = (proxy: NetworkProxy) => join(proxy.folder, proxy.socketName);

/** A plain-http request through the proxy, as curl with http_proxy sends it (absolute URI). */
function viaProxy(proxy: NetworkProxy, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: socketOf(proxy), path: url, headers: { host: new URL(url).host } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject).end();
  });
}

/** A CONNECT tunnel, then one plain request inside it (as a TLS client would, minus the TLS). */
function viaTunnel(proxy: NetworkProxy, authority: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: socketOf(proxy), method: 'CONNECT', path: authority });
    req.on('connect', (res, socket: Socket, head: Buffer) => {
      if (res.statusCode !== 200) {
        let body = head.toString('utf8');
        socket.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        socket.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        return;
      }
      let raw = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
      socket.on('end', () => resolve({ status: 200, body: raw.split('\r\n\r\n')[1] ?? '' }));
      socket.write(`GET /tunnelled HTTP/1.1\r\nhost: ${authority}\r\nconnection: close\r\n\r\n`);
    });
    req.on('error', reject).end();
  });
}

const allowAll: HostGate = () => Promise.resolve({ allowed: true, local: false });
const lookupTo = (address: string) => (): Promise<readonly ResolvedAddress[]> =>
  Promise.resolve([{ address, family: address.includes(':') ? 6 : 4 }]);

describe('the network proxy of a confined command', () => {
  it('forwards plain http and CONNECT to a host the gate allows, asking with that host and port', async () => {
    const asked: HostTarget[] = [];
    const { server, proxy } = await setup((target) => {
      asked.push(target);
      return Promise.resolve({ allowed: true, local: false });
    });
    const plain = await viaProxy(proxy, `http://127.0.0.1:${server.port}/plain?q=1`);
    expect(plain).toEqual({ status: 200, body: 'hello from /plain?q=1' });
    const tunnelled = await viaTunnel(proxy, `127.0.0.1:${server.port}`);
    expect(tunnelled).toEqual({ status: 200, body: 'hello from /tunnelled' });
    expect(server.requests).toEqual(['GET /plain?q=1', 'GET /tunnelled']);
    expect(asked).toEqual([
      { host: '127.0.0.1', port: server.port },
      { host: '127.0.0.1', port: server.port },
    ]);
  });

  it('answers 403 with the reason when the gate refuses, and opens no connection', async () => {
    const { server, proxy, connects } = await setup(() =>
      Promise.resolve({ allowed: false, reason: 'the user rejected it' }),
    );
    const plain = await viaProxy(proxy, `http://127.0.0.1:${server.port}/x`);
    expect(plain.status).toBe(403);
    expect(plain.body).toContain(`127.0.0.1:${server.port}: the user rejected it`);
    const tunnelled = await viaTunnel(proxy, `127.0.0.1:${server.port}`);
    expect(tunnelled.status).toBe(403);
    expect(tunnelled.body).toContain('the user rejected it');
    expect(connects).toEqual([]);
    expect(server.requests).toEqual([]);
  });

  it.each([
    ['10.0.0.1', 'the local network'],
    ['127.0.0.1', 'this computer'],
    ['169.254.169.254', 'metadata'],
    ['::ffff:127.0.0.1', 'this computer'],
    ['fd12::1', 'the local network'],
  ])('refuses an allowed name that resolves to %s (%s) and never connects', async (address, words) => {
    const { proxy, connects } = await setup(allowAll, { lookup: lookupTo(address) });
    for (const reply of [
      await viaProxy(proxy, 'http://intranet.example:8080/'),
      await viaTunnel(proxy, 'intranet.example:443'),
    ]) {
      expect(reply.status).toBe(403);
      expect(reply.body).toContain(`intranet.example resolves to ${address}`);
      expect(reply.body).toContain(words);
    }
    expect(connects).toEqual([]);
  });

  it('reaches a local address the user allowed exactly: the address itself, localhost, or a host allowed for the local network', async () => {
    const lookups: string[] = [];
    const lookup = (host: string) => {
      lookups.push(host);
      return lookupTo(host === 'localhost' ? '127.0.0.1' : '10.0.0.1')();
    };
    const local = new Set(['intranet.example']);
    const { proxy, connects } = await setup(
      (target) => Promise.resolve({ allowed: true, local: local.has(target.host) }),
      { lookup },
    );
    // Each goes, by the hook, to the loopback server: what matters is the address the proxy chose.
    expect((await viaTunnel(proxy, '10.0.0.1:443')).status).toBe(200);
    expect((await viaTunnel(proxy, 'localhost:443')).status).toBe(200);
    expect((await viaTunnel(proxy, 'intranet.example:443')).status).toBe(200);
    expect(connects).toEqual([
      { host: '10.0.0.1', port: 443 },
      { host: '127.0.0.1', port: 443 },
      { host: '10.0.0.1', port: 443 },
    ]);
    // An address typed as such is never looked up.
    expect(lookups).toEqual(['localhost', 'intranet.example']);
  });

  it('resolves a name only once the gate allowed it (a refused name leaks nothing to DNS)', async () => {
    const lookups: string[] = [];
    const { proxy } = await setup(() => Promise.resolve({ allowed: false, reason: 'no' }), {
      lookup: (host) => {
        lookups.push(host);
        return lookupTo('93.184.215.14')();
      },
    });
    expect((await viaTunnel(proxy, 'secret-data.attacker.example:443')).status).toBe(403);
    expect(lookups).toEqual([]);
  });

  it('keeps its socket in a private folder and removes it when closed', async () => {
    const { stat } = await import('node:fs/promises');
    const { proxy } = await setup(allowAll);
    expect((await stat(proxy.folder)).mode & 0o777).toBe(0o700);
    await proxy.close();
    await expect(stat(proxy.folder)).rejects.toThrow();
  });

  it('withdraws an open question when it closes (the command ended)', async () => {
    let withdrawn = false;
    const { proxy, server } = await setup(
      (_target, signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            withdrawn = true;
            resolve({ allowed: false, reason: 'the command ended' });
          });
        }),
    );
    const pending = viaTunnel(proxy, `127.0.0.1:${server.port}`).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await proxy.close();
    await pending;
    expect(withdrawn).toBe(true);
  });
});

describe('addresses and authorities', () => {
  it('classes addresses, IPv4 inside IPv6 included', () => {
    const expected: Record<string, string> = {
      '93.184.215.14': 'public',
      '2606:4700::1111': 'public',
      '127.0.0.2': 'loopback',
      '::1': 'loopback',
      '::ffff:10.1.2.3': 'private',
      '64:ff9b::a9fe:a9fe': 'metadata',
      '2002:7f00:1::': 'loopback',
      '172.31.255.255': 'private',
      '172.32.0.1': 'public',
      '100.64.0.1': 'private',
      '169.254.1.1': 'link-local',
      'fe80::1': 'link-local',
      '0.0.0.0': 'unspecified',
      'not-an-ip': 'reserved',
    };
    for (const [address, kind] of Object.entries(expected)) expect(addressClass(address), address).toBe(kind);
  });

  it('parses and normalises what a CONNECT names', () => {
    expect(parseAuthority('Registry.NPMJS.org.:443')).toEqual({ host: 'registry.npmjs.org', port: 443 });
    expect(parseAuthority('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(parseAuthority('example.com', 80)).toEqual({ host: 'example.com', port: 80 });
    expect(parseAuthority('example.com')).toBeUndefined();
    expect(parseAuthority('example.com:0')).toBeUndefined();
    expect(parseAuthority('example.com:70000')).toBeUndefined();
    expect(parseAuthority('user@example.com:443')).toBeUndefined();
    expect(parseAuthority('exa mple.com:443')).toBeUndefined();
  });
});
