import { isIP } from 'node:net';

/** One entry of settings web.allowedHosts, read: the host (lower case, no brackets) and its port when it names one. */
export interface WebHostEntry {
  readonly host: string;
  readonly port?: number;
}

/**
 * `example.org`, `example.org:8080`, `127.0.0.1:5173`, `[::1]:8080`, or a bare IPv6 address (any
 * port). Undefined for text that is none of these (the settings schema already refuses most).
 */
export function parseWebHost(entry: string): WebHostEntry | undefined {
  const text = entry.trim().toLowerCase();
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/.exec(text);
  if (bracketed !== null) {
    if (isIP(bracketed[1] ?? '') !== 6) return undefined;
    return withPort(bracketed[1] ?? '', bracketed[2]);
  }
  if (isIP(text) === 6) return { host: text };
  const [host = '', port, extra] = text.split(':');
  if (extra !== undefined || host === '') return undefined;
  return withPort(host.replace(/\.$/, ''), port);
}

function withPort(host: string, port: string | undefined): WebHostEntry | undefined {
  if (port === undefined) return { host };
  const number = Number(port);
  return Number.isInteger(number) && number >= 1 && number <= 65535 ? { host, port: number } : undefined;
}

/**
 * Whether the user allowed `host:port` for web_fetch in Settings (or by an "always" answer). Exact
 * names only: no subdomain, and an entry with a port allows that port alone.
 */
export const webHostAllowed = (
  entries: readonly string[],
  target: { readonly host: string; readonly port: number },
): boolean =>
  entries.some((text) => {
    const entry = parseWebHost(text);
    return (
      entry !== undefined && entry.host === target.host && (entry.port === undefined || entry.port === target.port)
    );
  });

/** How an "always" answer is kept: exactly the host and port asked about (`[v6]:port` for IPv6). */
export const webHostEntryFor = (target: { readonly host: string; readonly port: number }): string =>
  `${isIP(target.host) === 6 ? `[${target.host}]` : target.host}:${target.port}`;
