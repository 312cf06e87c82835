import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The checksum file attached to every release, in the format `sha256sum -c` and `shasum -a 256 -c` read. */
export const checksumFileName = 'SHA256SUMS.txt';

/** What a release carries: installers, the updater's zips, blockmaps and feeds (latest*.yml). */
const releaseAsset = /\.(AppImage|deb|tar\.gz|dmg|zip|exe|blockmap)$|^latest(-[a-z0-9]+)*\.yml$/;

/** Release assets among a folder's file names, in a stable order; electron-builder's debug files are not. */
export function releaseAssets(names: readonly string[]): string[] {
  return names.filter((name) => releaseAsset.test(name)).sort();
}

/** SHA-256 of a file, streamed (installers are hundreds of megabytes). */
export function sha256File(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

/** One line per file: `<hex>  <name>` (two spaces: text mode, as sha256sum writes it). */
export async function checksumLines(dir: string, names: readonly string[]): Promise<string> {
  const lines: string[] = [];
  for (const name of names) lines.push(`${await sha256File(join(dir, name))}  ${name}`);
  return `${lines.join('\n')}\n`;
}

/** Writes SHA256SUMS.txt for every release asset in `dir`; returns the names it covers. */
export async function writeChecksums(dir: string): Promise<string[]> {
  const names = releaseAssets(await readdir(dir));
  if (names.length === 0) throw new Error(`No release assets in ${dir}: nothing to checksum.`);
  await writeFile(join(dir, checksumFileName), await checksumLines(dir, names));
  return names;
}
