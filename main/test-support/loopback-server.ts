import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An HTTP server listening on a free port of 127.0.0.1: where it is, and how to stop it. */
export interface ListeningServer {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** Drops open connections and stops listening. */
  readonly close: () => Promise<void>;
}

/** Starts `server` on a free port of 127.0.0.1, never another address. */
export async function listenOnLoopback(server: Server): Promise<ListeningServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** For tests (not shipped): an HTTP server on 127.0.0.1 that answers every request and remembers it. */
export interface LoopbackServer {
  readonly port: number;
  /** `METHOD path` of every request it received, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

/** Answers `hello from <path>`; started on a free port of 127.0.0.1, never another address. */
export async function startLoopbackServer(): Promise<LoopbackServer> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method ?? '?'} ${req.url ?? '?'}`);
    const body = `hello from ${req.url ?? '?'}`;
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body) }).end(body);
  });
  const { port, close } = await listenOnLoopback(server);
  return { port, requests, close };
}
