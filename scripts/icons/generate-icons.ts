import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { buildIconFiles, iconPaths, rasterSizes } from './icon-set';
import { rasterizeSvg } from './rasterize';

/** Renders build/icon.svg and writes every platform's icon into `buildDir`; returns the paths written. */
export async function generateIcons(buildDir: string, executablePath?: string): Promise<string[]> {
  const svg = await readFile(join(buildDir, iconPaths.source), 'utf8');
  const pngs = await rasterizeSvg(svg, rasterSizes, executablePath);
  const written: string[] = [];
  for (const [path, bytes] of buildIconFiles(svg, pngs)) {
    const target = join(buildDir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, bytes);
    written.push(path);
  }
  return written;
}
