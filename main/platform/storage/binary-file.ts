import { readFile } from 'node:fs/promises';

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
