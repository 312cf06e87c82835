import { crc32, inflateSync } from 'node:zlib';

/**
 * Just enough PNG to check icons and turn them into ICO bitmaps: the 8-bit, non-interlaced RGB(A)
 * images Chromium's screenshots produce. Every chunk's CRC is checked, so a decode that succeeds
 * means the file is whole.
 */
export interface DecodedPng {
  readonly width: number;
  readonly height: number;
  /** Straight (non-premultiplied) RGBA, 4 bytes per pixel, top row first. */
  readonly rgba: Buffer;
}

export const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Chunk {
  readonly type: string;
  readonly data: Buffer;
}

function readChunks(png: Buffer): Chunk[] {
  if (png.length < 8 || !png.subarray(0, 8).equals(pngSignature)) throw new Error('not a PNG (bad signature)');
  const chunks: Chunk[] = [];
  let offset = 8;
  while (offset < png.length) {
    if (offset + 12 > png.length) throw new Error('truncated PNG chunk header');
    const length = png.readUInt32BE(offset);
    const end = offset + 12 + length;
    if (end > png.length) throw new Error('truncated PNG chunk');
    const typeAndData = png.subarray(offset + 4, offset + 8 + length);
    if (crc32(typeAndData) !== png.readUInt32BE(offset + 8 + length)) throw new Error('PNG chunk CRC mismatch');
    chunks.push({ type: typeAndData.subarray(0, 4).toString('latin1'), data: typeAndData.subarray(4) });
    offset = end;
  }
  if (chunks[0]?.type !== 'IHDR') throw new Error('PNG does not start with IHDR');
  if (chunks.at(-1)?.type !== 'IEND') throw new Error('PNG does not end with IEND');
  return chunks;
}

/** Width and height from the IHDR chunk, without decoding pixels. */
export function readPngSize(png: Buffer): { width: number; height: number } {
  if (png.length < 24 || !png.subarray(0, 8).equals(pngSignature) || png.toString('latin1', 12, 16) !== 'IHDR') {
    throw new Error('not a PNG (no IHDR)');
  }
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const toLeft = Math.abs(estimate - left);
  const toUp = Math.abs(estimate - up);
  const toUpLeft = Math.abs(estimate - upLeft);
  if (toLeft <= toUp && toLeft <= toUpLeft) return left;
  return toUp <= toUpLeft ? up : upLeft;
}

export function decodePng(png: Buffer): DecodedPng {
  const chunks = readChunks(png);
  const header = chunks[0]!.data;
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const [bitDepth, colorType, , , interlace] = [header[8], header[9], header[10], header[11], header[12]];
  if (bitDepth !== 8 || (colorType !== 6 && colorType !== 2) || interlace !== 0) {
    throw new Error(`unsupported PNG layout (bit depth ${bitDepth}, color type ${colorType}, interlace ${interlace})`);
  }
  const channels = colorType === 6 ? 4 : 3;
  const stride = width * channels;
  const raw = inflateSync(Buffer.concat(chunks.filter((chunk) => chunk.type === 'IDAT').map((chunk) => chunk.data)));
  if (raw.length !== height * (stride + 1)) throw new Error('PNG pixel data has the wrong length');

  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const row = y * stride;
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x]!;
      const left = x >= channels ? pixels[row + x - channels]! : 0;
      const up = y > 0 ? pixels[row - stride + x]! : 0;
      const upLeft = x >= channels && y > 0 ? pixels[row - stride + x - channels]! : 0;
      const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter ?? -1];
      if (predictor === undefined) throw new Error(`unknown PNG filter ${filter}`);
      pixels[row + x] = (value + predictor) & 0xff;
    }
  }
  if (channels === 4) return { width, height, rgba: pixels };
  const rgba = Buffer.alloc(width * height * 4, 0xff);
  for (let i = 0; i < width * height; i++) pixels.copy(rgba, i * 4, i * 3, i * 3 + 3);
  return { width, height, rgba };
}
