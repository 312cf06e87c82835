import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';

/**
 * Writes a small file so that a crash leaves either the old or the new content: temp file in the
 * same directory, fsync, rename over the target, fsync the directory.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', mode);
  try {
    await handle.writeFile(data);
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
