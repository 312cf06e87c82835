import { createHash } from 'node:crypto';
import { encodeIcns, icnsPngTypes } from './icns';
import type { IcnsType } from './icns';
import { encodeIco } from './ico';
import { decodePng } from './png';

/** The hicolor sizes Linux desktops look for; electron-builder installs build/icons/NxN.png. */
export const linuxIconSizes = [16, 24, 32, 48, 64, 128, 256, 512] as const;
/** Explorer, the taskbar and the NSIS installer pick from these. */
export const icoSizes = [16, 24, 32, 48, 64, 128, 256] as const;

export const rasterSizes: readonly number[] = [
  ...new Set<number>([...linuxIconSizes, ...icoSizes, ...Object.values(icnsPngTypes)]),
].sort((a, b) => a - b);

/** Paths are relative to build/, which electron-builder.yml names as buildResources. */
export const iconPaths = {
  source: 'icon.svg',
  manifest: 'icon-manifest.json',
  ico: 'icon.ico',
  icns: 'icon.icns',
  linux: (size: number) => `icons/${size}x${size}.png`,
};

export interface IconManifest {
  readonly source: string;
  /** SHA-256 of the SVG with line endings normalized: tells a test the icons are stale. */
  readonly sha256: string;
}

export function svgDigest(svg: string): string {
  return createHash('sha256').update(svg.replace(/\r\n/g, '\n')).digest('hex');
}

function pngOf(pngs: ReadonlyMap<number, Buffer>, size: number): Buffer {
  const png = pngs.get(size);
  if (png === undefined) throw new Error(`no ${size} px rendering`);
  return png;
}

/** Every icon file, as bytes, from one PNG rendering per size. */
export function buildIconFiles(svg: string, pngs: ReadonlyMap<number, Buffer>): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const size of linuxIconSizes) files.set(iconPaths.linux(size), pngOf(pngs, size));
  files.set(
    iconPaths.ico,
    encodeIco(icoSizes.map((size) => ({ size, png: pngOf(pngs, size), decoded: decodePng(pngOf(pngs, size)) }))),
  );
  files.set(
    iconPaths.icns,
    encodeIcns(
      (Object.entries(icnsPngTypes) as [IcnsType, number][]).map(([type, size]) => ({ type, data: pngOf(pngs, size) })),
    ),
  );
  const manifest: IconManifest = { source: iconPaths.source, sha256: svgDigest(svg) };
  files.set(iconPaths.manifest, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
  return files;
}
