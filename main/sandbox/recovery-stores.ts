import { constants } from 'node:fs';
import { copyFile, cp, link, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, join } from 'node:path';
import { ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { fsError } from './fs-errors';

/**
 * Where replaced and deleted files go: Familiar's data folder, never the workspace. Every saved item
 * sits in its own folder next to a `restore.json` that says where it came from, so a person (or a
 * future "restore" button) can put it back.
 */
export interface RecoveryStore {
  /**
   * Keeps the current version of a file about to be replaced by an atomic write (call it before the
   * rename); answers the kept copy's absolute path.
   */
  keepCopy(real: string, relPath: string): Promise<Result<string>>;
  /** Moves a file or folder out of the workspace instead of deleting it; answers where it went. */
  moveIn(real: string, relPath: string): Promise<Result<string>>;
}

function slot(): string {
  const now = new Date();
  const stamp = now.toISOString().replaceAll(':', '').replace('.', '-');
  return join(stamp.slice(0, 10), `${stamp.slice(11)}-${randomBytes(4).toString('hex')}`);
}

async function prepareSlot(dir: string, real: string, relPath: string, action: string): Promise<string> {
  const folder = join(dir, slot());
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const manifest = { original: real, workspacePath: relPath, action, at: new Date().toISOString() };
  await writeFile(join(folder, 'restore.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  return folder;
}

export function createRecoveryStore(dir: string, action: 'backup' | 'trash'): RecoveryStore {
  return {
    async keepCopy(real, relPath) {
      try {
        const target = join(await prepareSlot(dir, real, relPath, action), basename(real));
        // A hard link costs nothing and is a true copy here: file tools always replace files by
        // rename (a new inode), so the linked old inode is never written again. Copy across devices.
        await link(real, target).catch(() => copyFile(real, target, constants.COPYFILE_FICLONE));
        return ok(target);
      } catch (error) {
        return fsError(error, relPath);
      }
    },
    async moveIn(real, relPath) {
      try {
        const target = join(await prepareSlot(dir, real, relPath, action), basename(real));
        try {
          await rename(real, target);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
          // Another file system: copy (symlinks as they are, never followed), then remove.
          await cp(real, target, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
          await rm(real, { recursive: true });
        }
        return ok(target);
      } catch (error) {
        return fsError(error, relPath);
      }
    },
  };
}
