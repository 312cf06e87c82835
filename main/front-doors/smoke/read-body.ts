import type { IncomingMessage } from 'node:http';

/**
 * A request's whole body as UTF-8. Shared by the smoke test's scripted model and the e2e one
 * (e2e/fixtures), which may import the smoke test's files and nothing else of main/.
 */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}
