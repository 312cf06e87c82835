import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { DirRef } from './anchored-fs';
import { openDirStrict, openParentStrict } from './anchored-resolve';
import type { AnchorRoot } from './anchored-resolve';
import { fsError } from './fs-errors';
import { OpenedFile } from './opened-file';
import type { SandboxCore } from './sandbox-core';
import type { ResolvedPath } from './resolved-path';
import { parentRel } from './path-syntax';

const createFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;

export interface AtomicWriteOptions {
  /** Permission bits to keep (the replaced file's); new files get the default (0666 & ~umask). */
  readonly mode?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Last check before the rename (the caller's own conditions). */
  readonly beforeCommit?: (() => Promise<Result<void>>) | undefined;
}

const missingRoot = (display: string) =>
  err<never>('file_not_found', `The folder holding '${display}' does not exist (it was moved or deleted).`);

/** A temp name next to the target, under NAME_MAX whatever the target's name is. */
function tempNameFor(name: string): string {
  const stem = Buffer.from(name)
    .subarray(0, 180)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
  return `.${stem}.familiar-${randomBytes(6).toString('hex')}.tmp`;
}

/**
 * True when the folder held open is still the one the workspace names at `parentRel`: a folder
 * moved OUT of the workspace while we held it would otherwise receive the write.
 */
function stillInPlace(core: SandboxCore, root: AnchorRoot, parentRel: string, held: DirRef): boolean {
  try {
    const now = openDirStrict(core.anchored, root, parentRel, core.isProtected);
    try {
      return now.dir.dev === held.dev && now.dir.ino === held.ino;
    } finally {
      now.release();
    }
  } catch {
    return false;
  }
}

const replacedMeanwhile = (display: string) =>
  err<never>(
    'concurrent_modification',
    `The folder of '${display}' was moved or replaced while writing; nothing was written.`,
  );

/**
 * Writes `content` to the file `path` names so that it holds either the old or the new content at
 * every instant, even if the process dies: a temp file created next to it through the parent's
 * descriptor (O_EXCL | O_NOFOLLOW: nothing pre-planted is followed), fdatasync, rename over the
 * target within that same folder, fsync the folder. The temp file is journaled while it exists.
 */
export async function writeFileAtomic(
  core: SandboxCore,
  path: ResolvedPath,
  content: Uint8Array | readonly Uint8Array[],
  options: AtomicWriteOptions = {},
): Promise<Result<void>> {
  const pieces = content instanceof Uint8Array ? [content] : content;
  const root = core.rootOf(path);
  if (root === undefined) return missingRoot(path.display);
  let parent: ReturnType<typeof openParentStrict>;
  try {
    parent = openParentStrict(core.anchored, root, path.realRel, core.isProtected);
  } catch (error) {
    return fsError(error, path.display);
  }
  const temp = tempNameFor(parent.name);
  const entry = { root: root.dir.path, dir: parentRel(path.realRel), name: temp };
  let file: OpenedFile | undefined;
  let committed = false;
  try {
    core.tempJournal?.add(entry);
    file = new OpenedFile(
      core.anchored.openFile(parent.dir, temp, createFlags, options.mode === undefined ? 0o666 : 0o600),
    );
    if (options.mode !== undefined) await file.chmod(options.mode & 0o7777);
    for (const bytes of pieces) await file.writeAll(bytes);
    // fdatasync: the data and the size, which is what a reader after a crash needs.
    await file.datasync();
    await file.close();
    file = undefined;
    if (options.signal?.aborted === true)
      return err('aborted', 'The call was stopped before the file was replaced; nothing changed.');
    const check = await options.beforeCommit?.();
    if (check !== undefined && !check.ok) return check;
    if (!stillInPlace(core, root, entry.dir, parent.dir)) return replacedMeanwhile(path.display);
    core.anchored.rename(parent.dir, temp, parent.dir, parent.name);
    committed = true;
    core.anchored.syncDir(parent.dir);
    return ok(undefined);
  } catch (error) {
    return fsError(error, path.display);
  } finally {
    await file?.close().catch(() => undefined);
    if (!committed) {
      try {
        core.anchored.unlink(parent.dir, temp);
      } catch {
        // Never created, or already gone.
      }
    }
    core.tempJournal?.remove(entry);
    parent.release();
  }
}

/** Creates a new file (never replacing anything) and answers it open for writing. */
export function createNewFile(core: SandboxCore, path: ResolvedPath, mode = 0o644): Result<OpenedFile> {
  const root = core.rootOf(path);
  if (root === undefined) return missingRoot(path.display);
  try {
    const parent = openParentStrict(core.anchored, root, path.realRel, core.isProtected);
    try {
      return ok(new OpenedFile(core.anchored.openFile(parent.dir, parent.name, createFlags, mode)));
    } finally {
      parent.release();
    }
  } catch (error) {
    return fsError(error, path.display);
  }
}

/**
 * Creates the folder `path` names (and its missing parents when `parents`), one component at a
 * time through the parent's descriptor; a component swapped for a symlink meanwhile fails the call.
 */
export function makeDirectories(core: SandboxCore, path: ResolvedPath, parents = true): Result<void> {
  const root = core.rootOf(path);
  if (root === undefined) return missingRoot(path.display);
  const parts = path.realRel === '' ? [] : path.realRel.split('/');
  let dir = root.dir;
  const release = () => {
    if (dir !== root.dir) core.anchored.close(dir);
  };
  try {
    for (let i = 0; i < parts.length; i += 1) {
      const part = parts[i]!;
      let next: DirRef;
      try {
        next = core.anchored.openDir(dir, part);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        if (!parents && i < parts.length - 1) {
          return err('parent_dir_not_found', `A parent folder of '${path.display}' does not exist.`);
        }
        try {
          core.anchored.mkdir(dir, part);
        } catch (made) {
          // Another writer made it first: fine, it is opened (strictly) below.
          if ((made as NodeJS.ErrnoException).code !== 'EEXIST') throw made;
        }
        next = core.anchored.openDir(dir, part);
      }
      release();
      dir = next;
      if (core.isProtected(dir.dev, dir.ino)) {
        return err('permission_denied', `'${path.display}' leads into Familiar's own data, which tools do not touch.`);
      }
    }
    core.anchored.syncDir(dir);
    return ok(undefined);
  } catch (error) {
    return fsError(error, path.display);
  } finally {
    release();
  }
}
