import type { ServerResponse } from 'node:http';
import { extname, join, relative, resolve, sep } from 'node:path';
import { openAppFile } from '../../platform/storage/app-files';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/** Maps a URL path onto a file inside `root`, or null when it would leave it. */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const target = resolve(root, `.${decoded.startsWith('/') ? decoded : `/${decoded}`}`);
  const rel = relative(root, target);
  if (rel === '' || rel.startsWith('..') || rel.split(sep).includes('..')) return null;
  return target;
}

/** Serves a built renderer asset; answers 404 for anything that is not a regular file under root. */
export async function sendStaticFile(root: string, urlPath: string, res: ServerResponse): Promise<void> {
  const file = resolveStaticPath(root, urlPath);
  const asset = file === null ? null : await openAppFile(file);
  if (file === null || asset === null) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
    return;
  }
  res.writeHead(200, {
    'content-type': contentTypes[extname(file)] ?? 'application/octet-stream',
    'content-length': asset.size,
    'x-content-type-options': 'nosniff',
    // Hashed asset names make long caching safe.
    'cache-control': file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-store',
  });
  asset.stream().pipe(res);
}

export const indexHtmlPath = (root: string): string => join(root, 'index.html');
