import { tokenMatches } from './token';

/** Only loopback: Familiar's servers are for the person at this machine, never the network. */
export const LOOPBACK_HOST = '127.0.0.1';

/**
 * The checks every loopback server of Familiar applies (browser mode's bridge, MCP over HTTP),
 * written once. The Host header guards against DNS rebinding, the Origin against other sites'
 * pages, the random token against other local programs.
 */
export interface LoopbackGuards {
  /** The Host header names this server (127.0.0.1 or localhost, this port). */
  hostAllowed(host: string | undefined): boolean;
  /** The Origin is this server's own page. */
  originAllowed(origin: string | undefined): boolean;
  tokenAllowed(presented: string | null | undefined): boolean;
}

/** `port` is read on every check: a server started on port 0 learns its port after listening. */
export function loopbackGuards(token: string, port: () => number): LoopbackGuards {
  return {
    hostAllowed: (host) => host === `${LOOPBACK_HOST}:${port()}` || host === `localhost:${port()}`,
    originAllowed: (origin) =>
      origin === `http://${LOOPBACK_HOST}:${port()}` || origin === `http://localhost:${port()}`,
    tokenAllowed: (presented) => tokenMatches(token, presented),
  };
}
