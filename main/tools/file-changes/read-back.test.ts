import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OpenFile } from '../../platform/disk/anchored-read';
import { readsBackAs } from './read-back';

/** An open file holding `disk` whose reads answer at most `most` bytes at a time (as a kernel may). */
function fileHolding(disk: Buffer, most: number, size = disk.length): OpenFile {
  const handle = {
    read: (buffer: Buffer, offset: number, length: number, position: number) => {
      const n = Math.max(0, Math.min(length, most, disk.length - position));
      disk.copy(buffer, offset, position, position + n);
      return Promise.resolve({ bytesRead: n });
    },
  };
  return { handle, facts: { size } } as unknown as OpenFile;
}

describe('the read-back of a change', () => {
  it('says the file holds the pieces exactly when their bytes, one after another, are the file', async () => {
    const piece = fc.uint8Array({ maxLength: 9, size: 'max' }).map((bytes) => Buffer.from(bytes));
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 6, size: 'max' }),
        fc.uint8Array({ maxLength: 40, size: 'max' }),
        fc.constantFrom('same', 'other', 'one byte changed'),
        fc.integer({ min: 1, max: 5 }),
        async (pieces, other, what, most) => {
          const meant = Buffer.concat(pieces);
          const disk = what === 'other' ? Buffer.from(other) : Buffer.from(meant);
          if (what === 'one byte changed' && disk.length > 0) disk[other.length % disk.length]! ^= 1;
          const read = await readsBackAs(fileHolding(disk, most), pieces);
          expect(read.ok && read.value.same).toBe(disk.equals(meant));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('is not fooled by a file that ends early', async () => {
    const pieces = [Buffer.from('abc'), Buffer.from('def')];
    // The size said six bytes, the reads find three.
    const read = await readsBackAs(fileHolding(Buffer.from('abc'), 2, 6), pieces);
    expect(read.ok && read.value.same).toBe(false);
  });
});
