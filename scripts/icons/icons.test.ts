import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../main/test-support/temp-dir';
import { generateIcons } from './generate-icons';
import { icnsPngTypes, parseIcns } from './icns';
import { parseIco } from './ico';
import type { IcoEntry } from './ico';
import { iconPaths, icoSizes, linuxIconSizes, svgDigest } from './icon-set';
import type { IconManifest } from './icon-set';
import { decodePng } from './png';
import { chromiumExecutable } from './rasterize';

const committedBuildDir = join(import.meta.dirname, '..', '..', 'build');

/** Checks one build/ directory's icons the way the platforms will read them. */
async function expectValidIcons(buildDir: string): Promise<IcoEntry[]> {
  for (const size of linuxIconSizes) {
    const png = decodePng(await readFile(join(buildDir, iconPaths.linux(size))));
    expect([png.width, png.height], `${size} px PNG`).toEqual([size, size]);
    // A transparent corner and an opaque centre: the tile was drawn, at the right place.
    expect(png.rgba[3], `${size} px corner alpha`).toBe(0);
    expect(png.rgba[((size / 2) * size + size / 2) * 4 + 3], `${size} px centre alpha`).toBe(255);
  }

  const ico = parseIco(await readFile(join(buildDir, iconPaths.ico)));
  expect(ico.map((entry) => [entry.width, entry.format])).toEqual(
    icoSizes.map((size) => [size, size === 256 ? 'png' : 'bmp']),
  );

  const icns = parseIcns(await readFile(join(buildDir, iconPaths.icns)));
  expect(icns.map((entry) => entry.type)).toEqual(Object.keys(icnsPngTypes));
  const sizeOf: Record<string, number> = icnsPngTypes;
  for (const entry of icns) expect(decodePng(entry.data).width, entry.type).toBe(sizeOf[entry.type]);
  return ico;
}

describe('committed icons (build/)', () => {
  it('are valid PNG, ICO and ICNS files of every size the platforms need', async () => {
    await expectValidIcons(committedBuildDir);
  });

  it('were generated from the current icon.svg (run `npm run icons` after editing it)', async () => {
    const svg = await readFile(join(committedBuildDir, iconPaths.source), 'utf8');
    const manifest = JSON.parse(await readFile(join(committedBuildDir, iconPaths.manifest), 'utf8')) as IconManifest;
    expect(manifest).toEqual({ source: iconPaths.source, sha256: svgDigest(svg) });
  });

  it("decode in Chromium's ICO reader to exactly the pixels of the matching PNGs", async () => {
    const entries = parseIco(await readFile(join(committedBuildDir, iconPaths.ico)));
    const executablePath = chromiumExecutable();
    const browser = await chromium.launch({ ...(executablePath ? { executablePath } : {}), args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      for (const entry of entries) {
        // A one-image ICO per entry, so the browser cannot pick a different size.
        const header = Buffer.alloc(22);
        header.writeUInt16LE(1, 2);
        header.writeUInt16LE(1, 4);
        header.writeUInt8(entry.width % 256, 6);
        header.writeUInt8(entry.height % 256, 7);
        header.writeUInt16LE(1, 10);
        header.writeUInt16LE(32, 12);
        header.writeUInt32LE(entry.data.length, 14);
        header.writeUInt32LE(22, 18);
        const dataUrl = `data:image/x-icon;base64,${Buffer.concat([header, entry.data]).toString('base64')}`;
        const decoded = await page.evaluate(`(async () => {
          const image = new Image();
          image.src = ${JSON.stringify(dataUrl)};
          await image.decode();
          const canvas = document.createElement('canvas');
          canvas.width = image.naturalWidth;
          canvas.height = image.naturalHeight;
          const context = canvas.getContext('2d');
          context.drawImage(image, 0, 0);
          let binary = '';
          for (const byte of context.getImageData(0, 0, canvas.width, canvas.height).data) {
            binary += String.fromCharCode(byte);
          }
          return btoa(binary);
        })()`);
        const expected = decodePng(await readFile(join(committedBuildDir, iconPaths.linux(entry.width))));
        // The canvas stores premultiplied colour, so compare only opaque pixels' colour, and all alpha.
        const actual = Buffer.from(decoded as string, 'base64');
        for (let pixel = 0; pixel < expected.width * expected.height; pixel++) {
          const at = pixel * 4;
          const opaque = expected.rgba[at + 3] === 255;
          const want = opaque ? expected.rgba.subarray(at, at + 4) : expected.rgba.subarray(at + 3, at + 4);
          const got = opaque ? actual.subarray(at, at + 4) : actual.subarray(at + 3, at + 4);
          if (!want.equals(got)) expect.fail(`${entry.width} px ${entry.format}: pixel ${pixel} differs`);
        }
      }
    } finally {
      await browser.close();
    }
  });
});

describe('npm run icons', () => {
  const tempDir = useTempDirs();

  it('renders the SVG into a full, valid icon set', { timeout: 60_000 }, async () => {
    const buildDir = await tempDir('familiar-icons-');
    const svg = await readFile(join(committedBuildDir, iconPaths.source), 'utf8');
    await writeFile(join(buildDir, iconPaths.source), svg);
    const written = await generateIcons(buildDir);
    expect(written.sort()).toEqual(
      [iconPaths.ico, iconPaths.icns, iconPaths.manifest, ...linuxIconSizes.map(iconPaths.linux)].sort(),
    );
    await expectValidIcons(buildDir);
  });
});
