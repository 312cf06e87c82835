import { mkdirSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';

/**
 * Makes a folder of Familiar's data (and its parents) if it is missing. Data folders default to
 * 0700: transcripts, audit and history are the user's alone.
 */
export async function ensureFolder(dir: string, mode = 0o700): Promise<void> {
  await mkdir(dir, { recursive: true, mode });
}

/** ensureFolder in this thread: for the audit log, whose lines never wait in libuv's thread pool. */
export function ensureFolderSync(dir: string, mode = 0o700): void {
  mkdirSync(dir, { recursive: true, mode });
}

/** The names in a folder of Familiar's data, unsorted; none when it does not exist yet. */
export async function listFolder(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
