import { appendFile, readFile } from 'node:fs/promises';

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
