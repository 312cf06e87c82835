import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
