import { existsSync } from 'node:fs';
import { appendFile, open, readFile } from 'node:fs/promises';

/**
 * A binary file of Familiar's data (a cache such as the search index), or undefined when it is
 * missing or unreadable: the caller rebuilds what it holds. Written with writeFileAtomic.
 */
export async function readDataBytes(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch {
    return undefined;
  }
}

/**
 * Appends bytes to a binary file of Familiar's data (created 0600 when missing): a cache that grows
 * in segments as it is built. A crash may leave a partial record at the end; its reader drops it.
 */
export async function appendDataBytes(path: string, bytes: Uint8Array): Promise<void> {
  await appendFile(path, bytes, { mode: 0o600 });
}

/** Whether a binary file of Familiar's data is there (a cache saved before), without opening it. */
export function dataFileExists(path: string): boolean {
  return existsSync(path);
}

/** A binary data file held open for reads of byte ranges (a cache opened in parts). */
export interface DataRanges {
  /** The file's size when it was opened. */
  readonly size: number;
  /** `length` bytes from `offset`; rejects when the file holds fewer there. */
  read(offset: number, length: number): Promise<Buffer>;
  /** Fills `into` with the bytes from `offset` (no buffer of its own); rejects when the file holds fewer there. */
  readInto(offset: number, into: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** Opens a binary file of Familiar's data for range reads, or undefined when it is missing or unreadable. */
export async function openDataRanges(path: string): Promise<DataRanges | undefined> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const { size } = await handle.stat();
    const readInto = async (offset: number, into: Uint8Array): Promise<void> => {
      for (let at = 0; at < into.length;) {
        const { bytesRead } = await handle.read(into, at, into.length - at, offset + at);
        if (bytesRead === 0) throw new Error(`${path} ends before byte ${offset + into.length}`);
        at += bytesRead;
      }
    };
    return {
      size,
      async read(offset, length) {
        const bytes = Buffer.allocUnsafe(length);
        await readInto(offset, bytes);
        return bytes;
      },
      readInto,
      close: () => handle.close(),
    };
  } catch {
    await handle.close().catch(() => undefined);
    return undefined;
  }
}
