import { describe, expect, it } from 'vitest';
import { Bytes, Cursor, Sequential } from './segment-bytes';
import type { PositionedFile } from '../../../platform/storage/positioned-file';
import { seededRandom } from '../../../test-support/seeded-random';

type Written = ({ varint: number } | { run: Buffer })[];

/** Random varints into `bytes`, with a byte run of up to 1.5 MB every `runEvery`: what was written, in order. */
function writeRandom(bytes: Bytes, seed: number, count: number, runEvery: number): Written {
  const random = seededRandom(seed);
  const written: Written = [];
  for (let n = 0; n < count; n += 1) {
    const value = Math.floor(random() * 2 ** Math.floor(random() * 40));
    bytes.varint(value);
    written.push({ varint: value });
    if (n % runEvery === 0) {
      const run = Buffer.alloc(Math.floor(random() * 1.5 * 2 ** 20) + 1, n % 251);
      bytes.bytes(run);
      written.push({ run });
    }
  }
  return written;
}

describe('Bytes (a segment file being written, in blocks)', () => {
  it('gives back every varint and byte run in order, across block boundaries', () => {
    const bytes = new Bytes();
    // About 5 MB: several 1 MB blocks, with runs bigger than a block and varints that straddle none.
    const written = writeRandom(bytes, 7, 400_000, 50_000);
    const parts = bytes.result();
    expect(parts.length).toBeGreaterThan(3);
    const joined = Buffer.concat(parts);
    expect(joined.length).toBe(bytes.length);
    const cursor = new Cursor(joined);
    const mismatches: number[] = [];
    written.forEach((item, n) => {
      if ('varint' in item) {
        if (cursor.varint() !== item.varint) mismatches.push(n);
      } else {
        if (!joined.subarray(cursor.at, cursor.at + item.run.length).equals(item.run)) mismatches.push(n);
        cursor.at += item.run.length;
      }
    });
    expect(mismatches.slice(0, 5)).toEqual([]);
    expect(cursor.done).toBe(true);
  });

  it('answers its length as the offset of the next byte (the dictionary points into the postings by it)', () => {
    const bytes = new Bytes();
    expect(bytes.length).toBe(0);
    bytes.varint(300); // two bytes
    bytes.bytes(Buffer.alloc(70_000)); // past the first, small block
    expect(bytes.length).toBe(70_002);
    expect(Buffer.concat(bytes.result()).length).toBe(70_002);
  });

  it('grows its blocks with what it holds, up to 1 MB (a small segment allocates little, a big one a few dozen parts)', () => {
    const bytes = new Bytes();
    for (let n = 0; n < 3 * 2 ** 20; n += 1) bytes.varint(1);
    const sizes = bytes.result().map((part) => part.length);
    expect(sizes[0]).toBeLessThanOrEqual(2 ** 16);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2 ** 20);
    expect(sizes.at(-2)).toBe(2 ** 20 - 9); // a whole block (a varint never straddles two)
    expect(sizes.length).toBeLessThanOrEqual(8);
  });
});

describe('Sequential (a segment file read front to back, as a merge reads its inputs)', () => {
  it('reads every varint and byte run back across its reads, into one buffer it reuses', () => {
    const bytes = new Bytes();
    // A region that does not start at 0, and runs bigger than one read (1 MB).
    bytes.bytes(Buffer.alloc(123, 7));
    const written = writeRandom(bytes, 11, 300_000, 40_000);
    const joined = Buffer.concat(bytes.result());
    const targets = new Set<Buffer>();
    const file: PositionedFile = {
      size: joined.length,
      read: () => {
        throw new Error('a sequential reader reads into its own buffer');
      },
      readInto(target, at, offset, length) {
        targets.add(target);
        joined.copy(target, at, offset, offset + length);
      },
      close: () => undefined,
    };
    const reader = new Sequential(file, 123, joined.length);
    const mismatches: number[] = [];
    written.forEach((item, n) => {
      if ('varint' in item) {
        if (reader.varint() !== item.varint) mismatches.push(n);
      } else if (!reader.bytes(item.run.length).equals(item.run)) mismatches.push(n);
    });
    expect(mismatches.slice(0, 5)).toEqual([]);
    // Grown for the biggest run only, not one buffer per read (the region is several MB).
    expect(targets.size).toBeLessThanOrEqual(4);
  });
});
