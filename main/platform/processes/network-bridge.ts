import { createServer, connect } from 'node:net';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import type { ConfinementMode } from './confinement';
import type { NetworkBridge } from './launch-types';
import type { HostDecision, NetworkProxyOptions } from './network-proxy';
import { startNetworkProxy } from './network-proxy';

/**
 * How a confined command reaches Familiar's proxy (network-proxy.ts): its sandbox has an empty
 * network namespace (loopback only), so a socat inside listens on 127.0.0.1:3128 and carries each
 * connection to the proxy's Unix socket, bound read-only into the sandbox from its private folder.
 * The proxy variables point every well-behaved client (curl, npm, pip, git, cargo, go, Node with
 * NODE_USE_ENV_PROXY) there; anything that ignores them finds no network at all.
 */
export const BRIDGE_PORT = 3128;
/** Where the proxy's folder appears inside the sandbox: in its private /tmp, nowhere on the host. */
const INSIDE = '/tmp/.familiar-net';
const proxyUrl = `http://127.0.0.1:${BRIDGE_PORT}`;

const proxyVariables = (url: string) => ({
  HTTP_PROXY: url,
  HTTPS_PROXY: url,
  ALL_PROXY: url,
  http_proxy: url,
  https_proxy: url,
  all_proxy: url,
  // Inside the sandbox nothing is reachable directly, localhost included: no exemptions.
  NO_PROXY: '',
  no_proxy: '',
  // Node's own http and fetch follow the variables only when asked (Node 22.21+, 24.5+).
  NODE_USE_ENV_PROXY: '1',
});

/**
 * Runs before the command, inside the sandbox: socat starts (reparented to the sandbox's init, so
 * the command never sees it as its own child), the command starts only once socat listens (read
 * from /proc/net/tcp: 127.0.0.1:3128 in state LISTEN), or once socat is gone (then no network).
 * Arguments: socat's path, the socket's path, then the command and its arguments.
 */
const bridgeScript = [
  'socat=$1 sock=$2; shift 2',
  `pid=$("$socat" TCP-LISTEN:${BRIDGE_PORT},bind=127.0.0.1,fork,reuseaddr "UNIX-CONNECT:$sock" </dev/null >/dev/null 2>&1 & echo $!)`,
  `up() { while read -r _ a _ st _; do [ "$a $st" = "0100007F:${BRIDGE_PORT.toString(16).toUpperCase().padStart(4, '0')} 0A" ] && return 0; done </proc/net/tcp; return 1; }`,
  'until up; do kill -0 "$pid" 2>/dev/null || break; done',
  'exec "$@"',
].join('\n');

/** Starts the gated proxy and keeps, per host, the last answer it got (for the run's result). */
async function startRecordingProxy(options: NetworkProxyOptions) {
  const decisions = new Map<string, HostDecision>();
  const proxy = await startNetworkProxy({
    ...options,
    onDecision: (decision) => {
      decisions.set(`${decision.host}:${decision.port}`, decision);
      options.onDecision?.(decision);
    },
  });
  return { proxy, decisions };
}

export async function openNetworkBridge(socat: string, options: NetworkProxyOptions): Promise<NetworkBridge> {
  const { proxy, decisions } = await startRecordingProxy(options);
  return {
    bwrapMounts: ['--ro-bind', proxy.folder, INSIDE],
    wrap: (program) => [
      '/bin/sh',
      '-c',
      bridgeScript,
      'familiar-net',
      socat,
      `${INSIDE}/${proxy.socketName}`,
      ...program,
    ],
    environment: proxyVariables(proxyUrl),
    decisions: () => [...decisions.values()],
    close: () => proxy.close(),
  };
}

/**
 * macOS (Seatbelt): the command shares the host's network stack, so no socat is needed inside. The
 * proxy gets a TCP door on 127.0.0.1 (an ephemeral port, one per command) that carries each
 * connection to its Unix socket, and the profile lets the command reach that port and nothing
 * else. Unlike the Linux socket, any local process of this user could connect to the port while the
 * command runs; it gets only what the gate allows (every unknown host asks).
 */
export async function openLoopbackBridge(options: NetworkProxyOptions): Promise<NetworkBridge> {
  const { proxy, decisions } = await startRecordingProxy(options);
  const socketPath = join(proxy.folder, proxy.socketName);
  const open = new Set<Socket>();
  const door = createServer((client) => {
    const upstream = connect(socketPath);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const port = await new Promise<number>((resolve, reject) => {
    door.once('error', reject);
    door.listen(0, '127.0.0.1', () => {
      const address = door.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  }).catch(async (error: unknown) => {
    await proxy.close();
    throw error;
  });
  return {
    loopbackPort: port,
    bwrapMounts: [],
    wrap: (program) => [...program],
    environment: proxyVariables(`http://127.0.0.1:${port}`),
    decisions: () => [...decisions.values()],
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => door.close(() => resolve()));
      await proxy.close();
    },
  };
}

/**
 * The way to the network for a confined process, as the system confines it: Seatbelt, a loopback
 * port; bubblewrap, socat inside the sandbox (without socat: none). Unconfined: none (the process
 * has the user's network already).
 */
export async function openBridgeFor(
  mode: ConfinementMode | undefined,
  options: NetworkProxyOptions | undefined,
): Promise<NetworkBridge | undefined> {
  if (options === undefined || mode === undefined || !mode.confined) return undefined;
  if (mode.tool === 'seatbelt') return openLoopbackBridge(options);
  return mode.socat === undefined ? undefined : openNetworkBridge(mode.socat, options);
}
