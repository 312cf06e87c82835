import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { addressClass, addressClassWords } from '../../platform/processes/network-address';
import { normalizeHost } from '../../platform/processes/network-proxy';
import type { HostGate, ResolvedAddress } from '../../platform/processes/network-proxy';
import type { WebResponse, WebTransport } from './web-transport';

export interface GuardedFetchOptions {
  /** Asked for every host a fetch reaches, the first and each redirect's: the allowed lists, else the user. */
  readonly gate: HostGate;
  readonly transport: WebTransport;
  /** Name resolution; default the system's. Tests inject one. */
  readonly lookup?: (host: string) => Promise<readonly ResolvedAddress[]>;
  readonly signal: AbortSignal;
  /** The most body bytes read; the rest is not downloaded (truncated). */
  readonly maxBytes: number;
  readonly maxRedirects?: number;
  /**
   * How long the network part may take, from the first host's answer on (a person deciding is
   * not the server being slow): past it, timeout.
   */
  readonly timeoutMs: number;
  /** Default GET; a POST is never redirected (its body is not sent on to another URL). */
  readonly method?: 'GET' | 'POST';
  readonly body?: string;
  /** The tool named in refusals (default web_fetch). */
  readonly tool?: string;
  /** In place of web_fetch's own headers (web_search: the service's accept and key). */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface FetchedBody {
  readonly finalUrl: string;
  readonly status: number;
  readonly contentType: string;
  readonly bytes: Buffer;
  /** The body went on past maxBytes. */
  readonly truncated: boolean;
  /** Each URL redirected to, in order. */
  readonly redirects: readonly string[];
}

const MAX_REDIRECTS = 10;
const headers = {
  accept: 'text/html,application/xhtml+xml,text/markdown,text/plain;q=0.9,application/pdf;q=0.9,*/*;q=0.5',
  'user-agent': 'Mozilla/5.0 (compatible; Familiar web_fetch)',
};

const systemLookup = async (host: string): Promise<readonly ResolvedAddress[]> =>
  dnsLookup(host, { all: true, verbatim: true });

const defaultPort = (url: URL) => (url.protocol === 'https:' ? 443 : 80);

type Pinned = { readonly address: string; readonly family: 4 | 6 };

/**
 * The address a host may be reached at, after resolution: a public one; a loopback, private,
 * link-local or metadata one only when the user allowed exactly this host (settings:
 * web.allowedHosts). Checked for the first URL and again after every redirect.
 */
async function addressFor(
  host: string,
  local: boolean,
  lookup: (host: string) => Promise<readonly ResolvedAddress[]>,
  tool: string,
): Promise<Result<Pinned>> {
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = isIP(host) !== 0 ? [{ address: host, family: isIP(host) }] : await lookup(host);
  } catch (error) {
    return err('network_error', `${host} could not be resolved (${String(error)}).`, { host });
  }
  const usable = addresses.find((entry) => {
    const kind = addressClass(entry.address);
    return kind === 'public' || (local && kind !== 'multicast' && kind !== 'unspecified' && kind !== 'reserved');
  });
  if (usable !== undefined) return ok({ address: usable.address, family: usable.family === 6 ? 6 : 4 });
  const first = addresses[0]?.address;
  if (first === undefined) return err('network_error', `${host} has no address.`, { host });
  const kind = addressClass(first);
  return err(
    'permission_denied',
    `${host} resolves to ${first}, ${addressClassWords[kind]}. ${tool} reaches such an address only for a host the user allowed exactly (Settings → Web → Allowed hosts).`,
    { host, address: first, address_class: kind, reason: 'local_address' },
  );
}

async function readCapped(
  response: WebResponse,
  maxBytes: number,
): Promise<{ readonly bytes: Buffer; readonly truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of response.body) {
      const room = maxBytes - size;
      if (chunk.byteLength > room) {
        chunks.push(Buffer.from(chunk.subarray(0, room)));
        size += room;
        truncated = true;
        break;
      }
      chunks.push(Buffer.from(chunk));
      size += chunk.byteLength;
    }
  } finally {
    response.close();
  }
  return { bytes: Buffer.concat(chunks, size), truncated };
}

/**
 * A GET that follows redirects itself, so each hop is put to the gate and its address checked
 * before anything is sent there (SSRF), and connects to the address it checked (web-transport.ts).
 */
export async function guardedFetch(start: URL, options: GuardedFetchOptions): Promise<Result<FetchedBody>> {
  const lookup = options.lookup ?? systemLookup;
  const tool = options.tool ?? 'web_fetch';
  const redirects: string[] = [];
  let url = start;
  let deadline: AbortSignal | undefined;
  let signal = options.signal;
  const stopped = (): Result<never> =>
    deadline?.aborted === true
      ? err('timeout', `${url.origin} did not answer within ${options.timeoutMs} ms.`, { url: url.href })
      : err('aborted', 'The fetch was stopped.');
  for (;;) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return err('invalid_arguments', `${tool} reads http and https URLs only, not ${url.protocol}`, {
        url: url.href,
      });
    }
    if (url.username !== '' || url.password !== '') {
      return err('invalid_arguments', `${tool} does not send credentials written in a URL.`, { url: url.origin });
    }
    const host = normalizeHost(url.hostname);
    if (host === undefined) return err('invalid_arguments', `${url.hostname} is not a host name.`);
    const target = { host, port: url.port === '' ? defaultPort(url) : Number(url.port) };
    const verdict = await options
      .gate(target, options.signal)
      .catch((error: unknown) => ({ allowed: false as const, reason: `the question failed: ${String(error)}` }));
    if (!verdict.allowed) {
      return err('permission_denied', `${tool} may not reach ${host}:${target.port}: ${verdict.reason}`, {
        host,
        port: target.port,
        reason: 'host_refused',
      });
    }
    if (deadline === undefined) {
      deadline = AbortSignal.timeout(options.timeoutMs);
      signal = AbortSignal.any([options.signal, deadline]);
    }
    const pinned = await addressFor(host, verdict.local, lookup, tool);
    if (!pinned.ok) return pinned;
    if (signal.aborted) return stopped();
    let response: WebResponse;
    try {
      response = await options.transport({
        url,
        ...pinned.value,
        headers: options.headers ?? headers,
        signal,
        ...(options.method === undefined ? {} : { method: options.method }),
        ...(options.body === undefined ? {} : { body: options.body }),
      });
    } catch (error) {
      if (signal.aborted) return stopped();
      return err('network_error', `${url.origin} could not be fetched: ${String(error)}`, { url: url.href });
    }
    const location = response.header('location');
    if (response.status >= 300 && response.status < 400 && location !== undefined) {
      response.close();
      if (options.method === 'POST') {
        return err('network_error', `${url.origin} answered a POST with a redirect, which is not followed.`, {
          url: url.href,
          status: response.status,
        });
      }
      if (redirects.length >= (options.maxRedirects ?? MAX_REDIRECTS)) {
        return err('network_error', `Too many redirects (more than ${redirects.length}).`, { redirects });
      }
      try {
        url = new URL(location, url);
      } catch {
        return err('network_error', `A redirect to an invalid URL: ${location.slice(0, 200)}`);
      }
      redirects.push(url.href);
      continue;
    }
    try {
      const body = await readCapped(response, options.maxBytes);
      return ok({
        finalUrl: url.href,
        status: response.status,
        contentType: response.header('content-type') ?? '',
        ...body,
        redirects,
      });
    } catch (error) {
      if (signal.aborted) return stopped();
      return err('network_error', `The page from ${url.origin} broke off: ${String(error)}`, { url: url.href });
    }
  }
}
