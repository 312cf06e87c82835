import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../../main/test-support/loopback-server';
import type { ListeningServer } from '../../main/test-support/loopback-server';
import { useTempDirs } from '../../main/test-support/temp-dir';
import { ripgrepAssets } from './ripgrep-release';
import { vendorRipgrep } from './vendor-ripgrep';

const tempDir = useTempDirs();
let server: ListeningServer | undefined;
afterEach(() => server?.close());

/**
 * The release's download → digest → unpack → vendor folder, run for real against an archive laid
 * out as upstream's linux-x64 one (a stand-in rg and licence), served on 127.0.0.1. What this cannot
 * prove without the network is that GitHub serves the pinned bytes; the digest check refuses any other.
 */
async function standInRelease() {
  const pinned = ripgrepAssets['linux-x64']!;
  const work = await tempDir();
  await mkdir(join(work, pinned.root));
  await writeFile(join(work, pinned.root, 'rg'), '#!/bin/sh\necho "ripgrep 14.1.1"\n', { mode: 0o644 });
  await writeFile(join(work, pinned.root, 'LICENSE-MIT'), 'MIT\n');
  const archive = join(work, pinned.name);
  expect(spawnSync('tar', ['-czf', archive, '-C', work, pinned.root]).status).toBe(0);
  const bytes = await readFile(archive);
  server = await listenOnLoopback(
    createServer((req, res) => {
      if (req.url === `/${pinned.name}`) res.writeHead(200).end(bytes);
      else res.writeHead(404).end();
    }),
  );
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { asset: { ...pinned, sha256 }, url: `${server.origin}/${pinned.name}`, target: join(work, 'vendor') };
}

describe('vendorRipgrep', () => {
  it('leaves an executable rg and its licence in the vendor folder when the digest is the pinned one', async () => {
    const { asset, url, target } = await standInRelease();
    const outcome = await vendorRipgrep(asset, url, target);
    expect(outcome).toEqual({ ok: true, executable: join(target, 'rg') });
    expect((await stat(join(target, 'rg'))).mode & 0o777).toBe(0o755);
    expect(await readFile(join(target, 'LICENSE-MIT'), 'utf8')).toBe('MIT\n');
    expect(spawnSync(join(target, 'rg'), { encoding: 'utf8' }).stdout).toBe('ripgrep 14.1.1\n');
  });

  it('refuses bytes that are not the pinned archive, and a missing asset, writing nothing', async () => {
    const { asset, url, target } = await standInRelease();
    const wrong = await vendorRipgrep({ ...asset, sha256: ripgrepAssets['linux-x64']!.sha256 }, url, target);
    expect(wrong).toEqual({ ok: false, message: expect.stringContaining('is not the pinned') as string });
    const missing = await vendorRipgrep(asset, `${server!.origin}/nothing.tar.gz`, target);
    expect(missing).toEqual({ ok: false, message: expect.stringMatching(/HTTP 404$/) as string });
    await expect(stat(target)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
