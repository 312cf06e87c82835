import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { WS_PATH, WS_TOKEN_PARAM } from '../../../shared/ipc/ws-protocol';
import type { Dispatch } from '../../platform/ipc/dispatcher';
import type { EventHub } from '../../platform/ipc/event-hub';
import { readAppFile } from '../../platform/storage/app-files';
import { contentSecurityPolicyHeader } from '../../../shared/content-security-policy';
import { indexHtmlPath, sendStaticFile } from './static-files';
import { bridgeSocket } from './ws-bridge';
import { createAccessToken } from './token';
import { LOOPBACK_HOST as HOST, loopbackGuards } from './loopback-guards';

export interface BrowserServerOptions {
  readonly dispatch: Dispatch;
  readonly events: EventHub;
  /** The built renderer (out/renderer). */
  readonly rendererDir: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly token?: string;
}

export interface BrowserServer {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

// The largest legitimate message is an upload: at most 20 MB (transfers.maxUploadMB), base64-encoded
// (×4/3 ≈ 26.7 MB) inside a JSON call frame. Anything bigger is closed with 1009 before it is buffered.
export const MAX_FRAME_BYTES = 32 * 1024 * 1024;

// The page's one policy (the desktop window sends it too); the bridge's loopback origins are named
// in connect-src as well, for browsers that do not count ws:// to the page's own origin as 'self'.
const contentSecurityPolicy = (port: number) =>
  contentSecurityPolicyHeader([`ws://${HOST}:${port}`, `ws://localhost:${port}`]);

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end(message);
}

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/**
 * Serves the built renderer on loopback and bridges the contract over a WebSocket.
 * Three checks guard the bridge: the Host header (against DNS rebinding), the Origin
 * (against other sites' pages) and the random token printed in the URL.
 */
export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const token = options.token ?? createAccessToken();
  let port = options.port;
  const guards = loopbackGuards(token, () => port);

  const handleRequest = async (req: IncomingMessage, res: ServerResponse) => {
    if (!guards.hostAllowed(req.headers.host)) return refuse(res, 421, 'Unknown host');
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Method not allowed');
    const url = new URL(req.url ?? '/', `http://${HOST}:${port}`);
    if (url.pathname === '/' || url.pathname === '/index.html') {
      if (!guards.tokenAllowed(url.searchParams.get(WS_TOKEN_PARAM))) {
        return refuse(res, 401, 'Familiar needs its access token: open the full URL it printed when it started.');
      }
      const html = await readAppFile(indexHtmlPath(options.rendererDir));
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': contentSecurityPolicy(port),
        // The token is in this page's URL: never send it on as a referrer.
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
      });
      res.end(html);
      return;
    }
    return sendStaticFile(options.rendererDir, url.pathname, res);
  };

  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  // With noServer nothing should reach it, but an 'error' without a listener would end the process.
  sockets.on('error', () => undefined);
  const server = createServer((req, res) => {
    handleRequest(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 500, 'Internal error');
      else res.destroy();
    });
  });
  server.on('upgrade', (req, socket, head) => {
    // Node's HTTP server lets go of an upgraded socket: a reset by the client (during a refusal or
    // the handshake) would be an 'error' nobody listens to, which ends the process.
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', `http://${HOST}:${port}`);
    if (!guards.hostAllowed(req.headers.host)) return refuseUpgrade(socket, 421, 'Misdirected Request');
    if (url.pathname !== WS_PATH) return refuseUpgrade(socket, 404, 'Not Found');
    if (!guards.originAllowed(req.headers.origin)) return refuseUpgrade(socket, 403, 'Forbidden');
    if (!guards.tokenAllowed(url.searchParams.get(WS_TOKEN_PARAM))) return refuseUpgrade(socket, 401, 'Unauthorized');
    sockets.handleUpgrade(req, socket, head, (ws) => bridgeSocket(ws, randomUUID(), options.dispatch, options.events));
  });

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port, HOST, () => resolvePromise());
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://${HOST}:${port}/?${WS_TOKEN_PARAM}=${token}`,
    port,
    token,
    async close() {
      for (const client of sockets.clients) client.close(1001, 'Familiar is shutting down');
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolvePromise) => server.close(() => resolvePromise()));
    },
  };
}
