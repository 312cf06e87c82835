// `jiti scripts/ripgrep/fetch-ripgrep.ts <linux|mac|win> <x64|arm64>...`: downloads the pinned
// ripgrep release for each architecture, refuses it unless its sha256 is the pinned one
// (ripgrep-release.ts), and leaves rg (rg.exe) and its licences in vendor/ripgrep/<os>-<arch>/, where
// electron-builder.yml's extraResources takes them into the package. The release workflow runs it
// before packing; a development checkout does without (search_in_code then uses rg on PATH).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../packaging/builder-config';
import { checkDigest, licenceFiles, parseTarget, releaseUrl, vendorFolder } from './ripgrep-release';
import type { BuilderArch, BuilderOs } from './ripgrep-release';

const [os, ...arches] = process.argv.slice(2);
if (os === undefined || arches.length === 0) {
  console.error('usage: fetch-ripgrep.ts <linux|mac|win> <x64|arm64>...');
  process.exit(2);
}

for (const arch of arches) {
  const found = parseTarget(os, arch);
  if (typeof found === 'string') {
    console.error(found);
    process.exit(2);
  }
  const url = releaseUrl(found);
  const response = await fetch(url);
  if (!response.ok) {
    console.error(`${url}: HTTP ${response.status}`);
    process.exit(1);
  }
  const bytes = Buffer.from(await response.arrayBuffer());
  const digest = checkDigest(found, createHash('sha256').update(bytes).digest('hex'));
  if (!digest.ok) {
    console.error(digest.message);
    process.exit(1);
  }
  const work = mkdtempSync(join(tmpdir(), 'familiar-ripgrep-'));
  try {
    const archive = join(work, found.name);
    writeFileSync(archive, bytes);
    // bsdtar (macOS, Windows' tar.exe) reads zip too; GNU tar (Linux) only needs the tar.gz.
    const unpacked = spawnSync('tar', ['-xf', archive, '-C', work], { stdio: 'inherit' });
    if (unpacked.status !== 0) process.exit(unpacked.status ?? 1);
    const target = vendorFolder(projectRoot, os as BuilderOs, arch as BuilderArch);
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target, { recursive: true });
    copyFileSync(join(work, found.root, found.executable), join(target, found.executable));
    chmodSync(join(target, found.executable), 0o755);
    for (const licence of licenceFiles) {
      const source = join(work, found.root, licence);
      if (existsSync(source)) copyFileSync(source, join(target, licence));
    }
    console.log(`ripgrep ${found.name} (sha256 ${found.sha256}) -> ${target}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
