// Downloads one pinned ripgrep archive, refuses it unless its sha256 is the pinned one, and leaves rg
// (rg.exe) and its licences in the folder electron-builder.yml's extraResources reads. Used by
// fetch-ripgrep.ts (the release workflow); tests hand in a loopback URL and an archive of their own.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkDigest, licenceFiles } from './ripgrep-release';
import type { RipgrepAsset } from './ripgrep-release';

export type VendorOutcome = { ok: true; executable: string } | { ok: false; message: string };

export async function vendorRipgrep(found: RipgrepAsset, url: string, target: string): Promise<VendorOutcome> {
  const response = await fetch(url);
  if (!response.ok) return { ok: false, message: `${url}: HTTP ${response.status}` };
  const bytes = Buffer.from(await response.arrayBuffer());
  const digest = checkDigest(found, createHash('sha256').update(bytes).digest('hex'));
  if (!digest.ok) return digest;
  const work = mkdtempSync(join(tmpdir(), 'familiar-ripgrep-'));
  try {
    const archive = join(work, found.name);
    writeFileSync(archive, bytes);
    // bsdtar (macOS, Windows' tar.exe) reads zip too; GNU tar (Linux) only needs the tar.gz.
    const unpacked = spawnSync('tar', ['-xf', archive, '-C', work], { encoding: 'utf8' });
    if (unpacked.status !== 0) return { ok: false, message: `tar -xf ${found.name}: ${unpacked.stderr.trim()}` };
    const executable = join(work, found.root, found.executable);
    if (!existsSync(executable))
      return { ok: false, message: `${found.name} holds no ${found.root}/${found.executable}` };
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target, { recursive: true });
    copyFileSync(executable, join(target, found.executable));
    chmodSync(join(target, found.executable), 0o755);
    for (const licence of licenceFiles) {
      const source = join(work, found.root, licence);
      if (existsSync(source)) copyFileSync(source, join(target, licence));
    }
    return { ok: true, executable: join(target, found.executable) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
