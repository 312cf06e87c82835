import { lookup as dnsLookup } from 'node:dns/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { connect as netConnect, isIP } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { addressClass, addressClassWords, isLocalhostName } from './network-address';

/**
 * The one way a confined command reaches the network (issue 28): an HTTP proxy on the host, one per
 * command, listening on a Unix socket in a private folder (0700) that only the command's sandbox is
 * shown. It speaks CONNECT (https, and any TLS) and absolute-URI requests (plain http). Each host
 * and port is put to the gate (the allowed lists, else a person's answer); an allowed name is
 * resolved here, never inside the sandbox, and an address on this computer, the local network or a
 * metadata service is reached only when the user allowed exactly that (an address typed as such,
 * localhost, or a host allowed for the local network). The proxy connects to the address it checked,
 * so a second resolution cannot swap it (DNS rebinding).
 */

export interface HostTarget {
  /** Lower case, without brackets or a trailing dot. */
  readonly host: string;
  readonly port: number;
}

export type HostVerdict =
  | {
      readonly allowed: true;
      /** The user allowed this host for the local network too: its loopback and private addresses may be reached. */
      readonly local: boolean;
    }
  | { readonly allowed: false; readonly reason: string };

/**
 * Asked once per request the command makes; merging, remembering and asking are the gate's business.
 * `signal` aborts when the proxy closes (the command ended): a question still open is withdrawn.
 */
export type HostGate = (target: HostTarget, signal: AbortSignal) => Promise<HostVerdict>;

export interface HostDecision extends HostTarget {
  readonly allowed: boolean;
  /** Why it was refused (the gate's reason, or the address check's). */
  readonly reason?: string;
}

export type ResolvedAddress = { readonly address: string; readonly family: number };

export interface NetworkProxyOptions {
  readonly gate: HostGate;
  /** Told every decision, allowed or not (the command's result lists them). */
  readonly onDecision?: (decision: HostDecision) => void;
  /** Name resolution; default the system's (getaddrinfo). Tests inject one. */
  readonly lookup?: (host: string) => Promise<readonly ResolvedAddress[]>;
  /** Opens the connection to the checked address; default net.connect. Tests inject one. */
  readonly connect?: (target: { readonly host: string; readonly port: number }) => Socket;
}

export interface NetworkProxy {
  /** The private folder holding the socket: the only thing bound into the sandbox. */
  readonly folder: string;
  /** The socket's name inside `folder`. */
  readonly socketName: string;
  /** Stops listening, cuts every open tunnel and removes the folder. */
  close(): Promise<void>;
}

const SOCKET_NAME = 'proxy.sock';

const systemLookup = async (host: string): Promise<readonly ResolvedAddress[]> =>
  dnsLookup(host, { all: true, verbatim: true });

/** `host:port` or `[v6]:port` (a CONNECT's target), normalised; undefined when it is not one. */
export function parseAuthority(authority: string, defaultPort?: number): HostTarget | undefined {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]/@\s]+))(?::(\d{1,5}))?$/.exec(authority);
  if (match === null) return undefined;
  const host = normalizeHost(match[1] ?? match[2] ?? '');
  const port = match[3] === undefined ? defaultPort : Number(match[3]);
  if (host === undefined || port === undefined || port < 1 || port > 65535) return undefined;
  return { host, port };
}

/** Lower case, no trailing dot, no brackets; only what a DNS name or an IP address may hold. */
export function normalizeHost(host: string): string | undefined {
  const bare = host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
  if (isIP(bare) !== 0) return bare;
  return /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/.test(bare) && bare.length <= 253
    ? bare
    : undefined;
}

type Reach = { readonly ok: true; readonly address: string } | { readonly ok: false; readonly reason: string };

/**
 * Whether an address of `host` may be reached: any public one; a non-public one only when the user
 * allowed exactly it (the host is that address, or localhost reaching loopback) or allowed the host
 * for the local network.
 */
function mayReach(host: string, address: string, local: boolean): boolean {
  const kind = addressClass(address);
  if (kind === 'public' || local) return true;
  if (isIP(host) !== 0) return kind !== 'reserved' && kind !== 'multicast';
  return isLocalhostName(host) && kind === 'loopback';
}

export async function startNetworkProxy(options: NetworkProxyOptions): Promise<NetworkProxy> {
  const lookup = options.lookup ?? systemLookup;
  const connect = options.connect ?? ((target) => netConnect(target));
  // mkdtemp makes the folder 0700: no other user, and no other command, reaches the socket.
  const folder = await mkdtemp(join(tmpdir(), 'familiar-net-'));
  const open = new Set<Duplex>();
  const closing = new AbortController();
  const track = (socket: Duplex) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    // A client gone mid-answer, or a target resetting: the other side is cut, nothing is thrown.
    socket.on('error', () => socket.destroy());
  };

  const decided = (target: HostTarget, reach: Reach): Reach => {
    options.onDecision?.({ ...target, allowed: reach.ok, ...(reach.ok ? {} : { reason: reach.reason }) });
    return reach;
  };

  async function reach(target: HostTarget): Promise<Reach> {
    const verdict = await options
      .gate(target, closing.signal)
      .catch((error: unknown): HostVerdict => ({ allowed: false, reason: `the question failed: ${String(error)}` }));
    if (!verdict.allowed) return decided(target, { ok: false, reason: verdict.reason });
    let addresses: readonly ResolvedAddress[];
    try {
      addresses =
        isIP(target.host) !== 0 ? [{ address: target.host, family: isIP(target.host) }] : await lookup(target.host);
    } catch (error) {
      return decided(target, { ok: false, reason: `${target.host} could not be resolved (${String(error)})` });
    }
    const usable = addresses.find((entry) => mayReach(target.host, entry.address, verdict.local));
    if (usable !== undefined) return decided(target, { ok: true, address: usable.address });
    const first = addresses[0]?.address;
    return decided(target, {
      ok: false,
      reason:
        first === undefined
          ? `${target.host} has no address`
          : `${target.host} resolves to ${first}, ${addressClassWords[addressClass(first)]}. ` +
            'A command reaches such an address only by that address itself, or for a host allowed for the local network in Settings.',
    });
  }

  const refusal = (target: string, reason: string) =>
    `Familiar refused this command's request to ${target}: ${reason}\n` +
    'The user decides which hosts a command may reach (an approval question, or Settings → Commands → Allowed hosts).\n';

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const reply = (status: number, body: string) => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(body);
    };
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return reply(400, 'Familiar’s proxy takes absolute http:// URLs (HTTP_PROXY) and CONNECT (HTTPS_PROXY).\n');
    }
    const target = url.protocol === 'http:' ? parseAuthority(url.host, 80) : undefined;
    if (target === undefined) return reply(400, `Familiar’s proxy does not forward ${url.protocol} URLs this way.\n`);
    void reach(target).then((reached) => {
      if (!reached.ok) return reply(403, refusal(`${target.host}:${target.port}`, reached.reason));
      const upstream = httpRequest({
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers: forwardedHeaders(req.headers),
        createConnection: () => connect({ host: reached.address, port: target.port }),
      });
      upstream.on('response', (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
        answer.pipe(res);
      });
      upstream.on('error', (error) =>
        reply(502, `${target.host}:${target.port} could not be reached: ${error.message}\n`),
      );
      req.pipe(upstream);
    });
  });

  server.on('connection', track);
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    const target = parseAuthority(req.url ?? '');
    const refuse = (status: string, body: string) =>
      client.end(
        `HTTP/1.1 ${status}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    if (target === undefined) return void refuse('400 Bad Request', 'CONNECT takes host:port.\n');
    void reach(target).then((reached) => {
      if (!reached.ok) return refuse('403 Forbidden', refusal(`${target.host}:${target.port}`, reached.reason));
      if (client.destroyed) return;
      const upstream = connect({ host: reached.address, port: target.port });
      track(upstream);
      upstream.once('connect', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client).on('error', () => undefined);
        client.pipe(upstream);
      });
      upstream.once('error', (error) => {
        if (upstream.connecting) refuse('502 Bad Gateway', `${target.host}:${target.port}: ${error.message}\n`);
        else client.destroy();
      });
      client.once('close', () => upstream.destroy());
    });
  });
  // WebSockets over plain http are not forwarded; over https they ride CONNECT like everything else.
  server.on('upgrade', (_req: IncomingMessage, client: Duplex) => {
    client.end('HTTP/1.1 501 Not Implemented\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
  });

  const socketPath = join(folder, SOCKET_NAME);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    folder,
    socketName: SOCKET_NAME,
    async close() {
      closing.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of open) socket.destroy();
      server.closeAllConnections();
      await closed;
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** Hop-by-hop and proxy headers stop here (RFC 9110 §7.6.1); the rest goes to the host as sent. */
function forwardedHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = `${headers.connection ?? ''}`
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  const dropped = new Set([
    'connection',
    'proxy-connection',
    'proxy-authorization',
    'keep-alive',
    'te',
    'trailer',
    'upgrade',
    ...named,
  ]);
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !dropped.has(name)));
}
