import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * For tests (not shipped): the copies of `file` that a store moved aside because it could not use
 * them (`<file>.invalid-<time>` beside it, see main/platform/storage/data-files.ts), as full paths.
 */
export async function setAsideCopies(file: string): Promise<string[]> {
  const folder = dirname(file);
  const prefix = `${basename(file)}.invalid-`;
  return (await readdir(folder)).filter((name) => name.startsWith(prefix)).map((name) => join(folder, name));
}
