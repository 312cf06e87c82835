import { pngSignature, readPngSize } from './png';
import type { DecodedPng } from './png';

/**
 * Windows .ico: a directory of images. Following Microsoft's guidance, 256 px is stored as PNG and
 * smaller sizes as uncompressed 32-bit bitmaps, which every consumer (Explorer, rcedit, NSIS) reads.
 */
export interface IcoImage {
  readonly size: number;
  readonly png: Buffer;
  readonly decoded: DecodedPng;
}

export interface IcoEntry {
  readonly width: number;
  readonly height: number;
  readonly format: 'png' | 'bmp';
  readonly data: Buffer;
}

const directoryHeaderBytes = 6;
const directoryEntryBytes = 16;
const bitmapHeaderBytes = 40;

const maskRowBytes = (width: number) => Math.ceil(width / 32) * 4;

/** A BITMAPINFOHEADER + bottom-up BGRA pixels + the 1-bit AND mask (set where fully transparent). */
function encodeBitmap({ width, height, rgba }: DecodedPng): Buffer {
  const maskRow = maskRowBytes(width);
  const bitmap = Buffer.alloc(bitmapHeaderBytes + width * height * 4 + maskRow * height);
  bitmap.writeUInt32LE(bitmapHeaderBytes, 0);
  bitmap.writeInt32LE(width, 4);
  bitmap.writeInt32LE(height * 2, 8); // colour rows + mask rows, as the format requires
  bitmap.writeUInt16LE(1, 12);
  bitmap.writeUInt16LE(32, 14);
  bitmap.writeUInt32LE(width * height * 4 + maskRow * height, 20);
  const pixels = bitmapHeaderBytes;
  const mask = pixels + width * height * 4;
  for (let y = 0; y < height; y++) {
    const bottomUp = height - 1 - y;
    for (let x = 0; x < width; x++) {
      const from = (y * width + x) * 4;
      const to = pixels + (bottomUp * width + x) * 4;
      bitmap[to] = rgba[from + 2]!;
      bitmap[to + 1] = rgba[from + 1]!;
      bitmap[to + 2] = rgba[from]!;
      bitmap[to + 3] = rgba[from + 3]!;
      if (rgba[from + 3] === 0) {
        const byte = mask + bottomUp * maskRow + (x >> 3);
        bitmap[byte] = bitmap[byte]! | (0x80 >> (x & 7));
      }
    }
  }
  return bitmap;
}

export function encodeIco(images: readonly IcoImage[]): Buffer {
  const bodies = images.map((image) => (image.size >= 256 ? image.png : encodeBitmap(image.decoded)));
  const header = Buffer.alloc(directoryHeaderBytes + directoryEntryBytes * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach((image, index) => {
    const entry = directoryHeaderBytes + directoryEntryBytes * index;
    if (image.size > 256) throw new Error('ICO images are at most 256 px');
    header.writeUInt8(image.size === 256 ? 0 : image.size, entry);
    header.writeUInt8(image.size === 256 ? 0 : image.size, entry + 1);
    header.writeUInt16LE(1, entry + 4);
    header.writeUInt16LE(32, entry + 6);
    header.writeUInt32LE(bodies[index]!.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += bodies[index]!.length;
  });
  return Buffer.concat([header, ...bodies]);
}

/** Reads an .ico back, checking every entry's bounds and, for bitmaps, their header and size. */
export function parseIco(ico: Buffer): IcoEntry[] {
  if (ico.length < directoryHeaderBytes || ico.readUInt16LE(0) !== 0 || ico.readUInt16LE(2) !== 1) {
    throw new Error('not an ICO file');
  }
  const count = ico.readUInt16LE(4);
  const entries: IcoEntry[] = [];
  for (let index = 0; index < count; index++) {
    const entry = directoryHeaderBytes + directoryEntryBytes * index;
    if (entry + directoryEntryBytes > ico.length) throw new Error('truncated ICO directory');
    const width = ico[entry] || 256;
    const height = ico[entry + 1] || 256;
    const length = ico.readUInt32LE(entry + 8);
    const offset = ico.readUInt32LE(entry + 12);
    if (offset + length > ico.length) throw new Error(`ICO entry ${index} points past the end of the file`);
    const data = ico.subarray(offset, offset + length);
    if (data.subarray(0, 8).equals(pngSignature)) {
      const size = readPngSize(data);
      if (size.width !== width || size.height !== height) throw new Error(`ICO entry ${index}: PNG size differs`);
      entries.push({ width, height, format: 'png', data });
      continue;
    }
    const expected = bitmapHeaderBytes + width * height * 4 + maskRowBytes(width) * height;
    if (
      data.length !== expected ||
      data.readUInt32LE(0) !== bitmapHeaderBytes ||
      data.readInt32LE(4) !== width ||
      data.readInt32LE(8) !== height * 2 ||
      data.readUInt16LE(14) !== 32
    ) {
      throw new Error(`ICO entry ${index}: malformed ${width}x${height} bitmap`);
    }
    entries.push({ width, height, format: 'bmp', data });
  }
  return entries;
}
