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

export interface NetworkBridge {
  /** bwrap mounts to add (the proxy's folder, read-only). */
  readonly bwrapMounts: readonly string[];
  /** The command line as the sandbox runs it: the bridge first, then `program`. */
  wrap(program: readonly string[]): string[];
  /** Set for the command: every proxy variable to the bridge, nothing exempt. */
  readonly environment: Readonly<Record<string, string>>;
  /** Each host the command asked for, with the last answer it got. */
  decisions(): HostDecision[];
  close(): Promise<void>;
}

export async function openNetworkBridge(socat: string, options: NetworkProxyOptions): Promise<NetworkBridge> {
  const decisions = new Map<string, HostDecision>();
  const proxy = await startNetworkProxy({
    ...options,
    onDecision: (decision) => {
      decisions.set(`${decision.host}:${decision.port}`, decision);
      options.onDecision?.(decision);
    },
  });
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
    environment: {
      HTTP_PROXY: proxyUrl,
      HTTPS_PROXY: proxyUrl,
      ALL_PROXY: proxyUrl,
      http_proxy: proxyUrl,
      https_proxy: proxyUrl,
      all_proxy: proxyUrl,
      // Inside the sandbox nothing is reachable directly, localhost included: no exemptions.
      NO_PROXY: '',
      no_proxy: '',
      // Node's own http and fetch follow the variables only when asked (Node 22.21+, 24.5+).
      NODE_USE_ENV_PROXY: '1',
    },
    decisions: () => [...decisions.values()],
    close: () => proxy.close(),
  };
}
