import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** One request web_fetch or web_search makes, to the address it checked (guarded-fetch.ts). */
export interface WebRequest {
  readonly url: URL;
  /** Default GET; web_search's Tavily query is a POST of JSON. */
  readonly method?: 'GET' | 'POST';
  readonly body?: string;
  /** The address the host resolved to and was judged by: the connection goes there and nowhere else. */
  readonly address: string;
  readonly family: 4 | 6;
  readonly headers: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
}

export interface WebResponse {
  readonly status: number;
  header(name: string): string | undefined;
  /** The body, decoded from gzip/deflate/br. */
  readonly body: AsyncIterable<Uint8Array>;
  /** Stops reading and lets the connection go (a redirect's body, a page past the cap). */
  close(): void;
}

/** How a request leaves Familiar: Node's http(s) pinned to the address (default), or the desktop's net.fetch. */
export type WebTransport = (request: WebRequest) => Promise<WebResponse>;

export interface PinnedTransportOptions {
  /** Told the address and port right before a socket opens; tests make it fail when none may. */
  readonly onConnect?: (address: string, port: number) => void;
}

function decoded(response: IncomingMessage): AsyncIterable<Uint8Array> {
  const encoding = `${response.headers['content-encoding'] ?? ''}`.trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (decoder === undefined) return response;
  response.on('error', (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

/**
 * Node's http(s) with name resolution replaced by the address already checked: the TLS name and
 * Host header stay the URL's, the connection goes to that address, so a second DNS answer (DNS
 * rebinding) cannot send it anywhere else. No proxy: the checked address is the one reached.
 */
export function pinnedTransport(options: PinnedTransportOptions = {}): WebTransport {
  return (request) =>
    new Promise<WebResponse>((resolve, reject) => {
      const { url, address, family } = request;
      const secure = url.protocol === 'https:';
      const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
      const port = url.port === '' ? (secure ? 443 : 80) : Number(url.port);
      const lookup: LookupFunction = (_name, lookupOptions, callback) => {
        if (lookupOptions.all === true) callback(null, [{ address, family }]);
        else callback(null, address, family);
      };
      try {
        options.onConnect?.(address, port);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      const send = secure ? httpsRequest : httpRequest;
      const outgoing = send({
        // An IP literal is connected to as is (no lookup); it is the address checked.
        host: isIP(hostname) === 0 ? hostname : address,
        port,
        path: `${url.pathname}${url.search}`,
        method: request.method ?? 'GET',
        headers: {
          ...request.headers,
          'accept-encoding': 'gzip, deflate, br',
          ...(request.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(request.body)) }),
        },
        signal: request.signal,
        lookup,
        agent: false,
        ...(secure && isIP(hostname) === 0 ? { servername: hostname } : {}),
      });
      outgoing.on('response', (response) => {
        resolve({
          status: response.statusCode ?? 0,
          header: (name) => {
            const value = response.headers[name.toLowerCase()];
            return Array.isArray(value) ? value.join(', ') : value;
          },
          body: decoded(response),
          close: () => response.destroy(),
        });
      });
      outgoing.on('error', reject);
      outgoing.end(request.body);
    });
}

type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

async function* chunksOf(body: ReadableStream<Uint8Array> | null): AsyncIterable<Uint8Array> {
  if (body === null) return;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * A fetch function as the transport: the desktop's net.fetch (Chromium's stack: the system proxy,
 * PAC, the OS certificate store). Redirects come back to guarded-fetch.ts ('manual'), so every hop
 * is checked. Chromium resolves the name again itself, so the address it reaches is not pinned to
 * the one checked (README: web_fetch); Node's pinned transport is used everywhere else.
 */
export function fetchTransport(fetchFunction: FetchFunction): WebTransport {
  return async (request) => {
    const response = await fetchFunction(request.url.href, {
      method: request.method ?? 'GET',
      redirect: 'manual',
      headers: { ...request.headers },
      ...(request.body === undefined ? {} : { body: request.body }),
      signal: request.signal,
    });
    // A browser-style fetch hides a manual redirect's target (status 0): it could not be checked, so it is not followed.
    if (response.type === 'opaqueredirect' || response.status === 0) {
      void response.body?.cancel().catch(() => undefined);
      throw new Error('the redirect’s target was hidden by the network stack, so it could not be checked');
    }
    return {
      status: response.status,
      header: (name) => response.headers.get(name) ?? undefined,
      body: chunksOf(response.body),
      close: () => void response.body?.cancel().catch(() => undefined),
    };
  };
}
