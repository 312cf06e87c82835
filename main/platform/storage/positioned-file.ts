import { closeSync, openSync, readSync, fstatSync } from 'node:fs';
import { rm } from 'node:fs/promises';

/**
 * A file of Familiar's data held open for synchronous reads of byte ranges: a segment of the
 * semantic index, whose postings a query reads on demand. Synchronous on purpose: a BM25 query reads
 * a few small ranges (tens of microseconds each from the page cache), and keeping them synchronous
 * keeps the index's search synchronous, so no query ever interleaves with a flush or a merge that
 * swaps the segments it is reading.
 */
export interface PositionedFile {
  /** The file's size when it was opened. */
  readonly size: number;
  /** `length` bytes from `offset`; throws when the file holds fewer there. */
  read(offset: number, length: number): Buffer;
  /** The same bytes into `target` at `at` (a reader that reuses one buffer allocates nothing). */
  readInto(target: Buffer, at: number, offset: number, length: number): void;
  close(): void;
}

/** Opens a data file for positioned reads, or undefined when it is missing or unreadable. */
export function openPositionedFile(path: string): PositionedFile | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const { size } = fstatSync(fd);
    let open = true;
    const readInto = (target: Buffer, at: number, offset: number, length: number) => {
      // A closed descriptor's number may already belong to another file: never read through it.
      if (!open) throw new Error(`${path} is closed`);
      for (let done = 0; done < length;) {
        const read = readSync(fd, target, at + done, length - done, offset + done);
        if (read === 0) throw new Error(`${path} ends before byte ${offset + length}`);
        done += read;
      }
    };
    return {
      size,
      read(offset, length) {
        const bytes = Buffer.allocUnsafe(length);
        readInto(bytes, 0, offset, length);
        return bytes;
      },
      readInto,
      close() {
        if (!open) return;
        open = false;
        closeSync(fd);
      },
    };
  } catch {
    closeSync(fd);
    return undefined;
  }
}

/** Deletes a data file (a cache's file no longer named by its manifest); missing is fine. */
export async function removeDataFile(path: string): Promise<void> {
  await rm(path, { force: true });
}
