import { chmod, rename, stat } from 'node:fs/promises';

export interface DataFileFacts {
  readonly kind: 'file' | 'directory' | 'other';
  readonly size: number;
  readonly createdAt: Date;
  /** Permission bits only (mode & 0o777). */
  readonly mode: number;
}

/** What a file in Familiar's data folder is; rejects when it is missing. */
export async function dataFileFacts(path: string): Promise<DataFileFacts> {
  const info = await stat(path);
  return {
    kind: info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'other',
    size: info.size,
    createdAt: info.birthtime,
    mode: info.mode & 0o777,
  };
}

/** Renames within the data folder (e.g. a transcript into the trash); rejects when `from` is missing. */
export async function moveDataFile(from: string, to: string): Promise<void> {
  await rename(from, to);
}

/**
 * Moves a file the app could not use aside as <file>.invalid-<time> instead of overwriting it, so a
 * bad hand edit is never lost. Best effort: answers where it was meant to go either way.
 */
export async function keepInvalidAside(file: string): Promise<string> {
  const aside = `${file}.invalid-${Date.now()}`;
  await rename(file, aside).catch(() => undefined);
  return aside;
}

/**
 * Narrows a file's permission bits to `mode` when they are wider or different (a copy restored from
 * a backup may have lost them). Windows has no such bits: nothing to do there.
 */
export async function restrictFileMode(file: string, mode: number): Promise<void> {
  if (process.platform === 'win32') return;
  if ((await dataFileFacts(file)).mode !== mode) await chmod(file, mode);
}
