import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';

const tempBeside = (path: string) => join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);

/**
 * Writes a file so that a crash leaves either the old or the new content: temp file in the same
 * directory, fsync, rename over the target, fsync the directory. `data` may come in parts, written
 * one after another (an index segment: never joined into a second copy in memory).
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array | readonly Uint8Array[],
  mode = 0o600,
): Promise<void> {
  const temp = tempBeside(path);
  const handle = await open(temp, 'wx', mode);
  try {
    // writeFile on a handle writes from its current position: the parts follow one another.
    for (const part of typeof data === 'string' || data instanceof Uint8Array ? [data] : data)
      await handle.writeFile(part);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  // Make the rename itself durable; some platforms (Windows) cannot open directories: best effort.
  const dir = await open(dirname(path), 'r').catch(() => null);
  if (dir !== null) {
    await dir.sync().catch(() => undefined);
    await dir.close();
  }
}

/**
 * writeFileAtomic for the few writes that cannot wait for the event loop (the window's state as it
 * closes, moments before the app may quit). The directory is not fsynced: the file is a convenience.
 */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, mode = 0o600): void {
  const temp = tempBeside(path);
  const fd = openSync(temp, 'wx', mode);
  try {
    writeFileSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
