import * as fs from 'node:fs';
import type { Dirent, Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { CTIME_SLACK_MS, stampsEveryChange } from './kept-ctime';

/**
 * A folder held by identity, so that every name below it is looked up in THIS folder whatever
 * happens meanwhile to the path that led here (a parent renamed, a folder swapped for a symlink).
 * Go's os.Root is the model: resolve each component relative to an open directory.
 */
export interface DirRef {
  /** An O_PATH descriptor on Linux; -1 where folders are checked by path (macOS, Windows). */
  readonly fd: number;
  /** The absolute path it was reached by: for messages, and for lookups in checked-path mode. */
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
}

/**
 * - `proc-fd` (Linux): names are looked up through `/proc/self/fd/<dirfd>/<name>` with O_NOFOLLOW,
 *   which the kernel resolves inside the folder the descriptor holds: the same as openat(2). A swap
 *   between check and use can only ever reach what is inside.
 * - `checked-path` (macOS, Windows, or no /proc): Node has no openat there. Each step opens by
 *   path with O_NOFOLLOW and compares dev/ino before and after, so what is returned is verified to
 *   be what was checked; the window that remains is written down in SECURITY.md.
 */
export type AnchorMode = 'proc-fd' | 'checked-path';

/** A name changed under us (a folder became a symlink, or another folder) while it was in use. */
export const swappedError = (path: string): NodeJS.ErrnoException =>
  Object.assign(new Error(`'${path}' changed while it was being used`), { code: 'ELOOP' });

export interface AnchoredFs {
  readonly mode: AnchorMode;
  /** The path through which the kernel looks `name` up inside `dir` ('' names the folder itself). */
  at(dir: DirRef, name: string): string;
  /** Opens a trusted absolute folder (a workspace root): the one lookup that follows symlinks. */
  openRoot(path: string): DirRef;
  /** Opens `name` in `dir` as a folder; a symlink there is refused (ENOTDIR/ELOOP), never followed. */
  openDir(dir: DirRef, name: string): DirRef;
  /** A second, independently closable hold on the same folder. */
  reopen(dir: DirRef): DirRef;
  close(dir: DirRef): void;
  /** lstat of `name` in `dir`; undefined when nothing is there. */
  lstat(dir: DirRef, name: string): Stats | undefined;
  readlink(dir: DirRef, name: string): string;
  readdir(dir: DirRef): Dirent[];
  /** Opens a file (never through a final symlink); the descriptor is the entry that was checked. */
  openFile(dir: DirRef, name: string, flags: number, mode?: number): number;
  /**
   * True while the file `fd` was opened by is still linked at `name` in `dir`. Asked AFTER an fstat
   * that found one link: together they prove that at the fstat the file's only name was the one we
   * opened (a hard link to an outside file, unlinked between open and fstat, also shows one link:
   * the outside name). See isSoleName.
   */
  stillNamed(fd: number, dir: DirRef, name: string): boolean;
  /**
   * stillNamed without taking the folder's lock: for a caller that read `dir`'s entries (readdir,
   * which takes that lock) after its fstat found one link, as the walk does for the files it opens
   * before listing their folder (workspace-walker.ts openFirst). Asked at any other time it proves
   * nothing in proc-fd mode.
   */
  namedAfterListing(fd: number, dir: DirRef, name: string): boolean;
  mkdir(dir: DirRef, name: string, mode?: number): void;
  rename(fromDir: DirRef, fromName: string, toDir: DirRef, toName: string): void;
  /** Moves an entry out of the workspace into an absolute path of Familiar's own data (trash). */
  renameOut(dir: DirRef, name: string, destination: string): void;
  unlink(dir: DirRef, name: string): void;
  rmdir(dir: DirRef, name: string): void;
  symlink(target: string, dir: DirRef, name: string): void;
  /** Throws unless `dir` is still the folder it was (checked-path mode; a no-op with descriptors). */
  verify(dir: DirRef): void;
  /** The folder's own facts. */
  stat(dir: DirRef): Stats;
  /** Makes renames and creations in the folder durable (best effort where folders cannot be synced). */
  syncDir(dir: DirRef): void;
}

function syncPath(path: string): void {
  let fd: number;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | O_DIRECTORY);
  } catch {
    return; // Windows cannot open folders: nothing to sync there.
  }
  try {
    fs.fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on folders; the rename itself already happened.
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Returns once no unlink, rename or link in the folder is half done: reading a folder's entries
 * takes the folder's lock (iterate_dir), which those hold from start to end (Linux). One batch of
 * entries is enough to have held it.
 */
export function waitForNameChanges(dirPath: string): void {
  const dir = fs.opendirSync(dirPath);
  try {
    dir.readSync();
  } finally {
    dir.closeSync();
  }
}

// O_PATH is not in Node's constants; its value is the same on every Linux architecture Electron ships.
const O_PATH = 0o10000000;
const { O_DIRECTORY = 0, O_NOFOLLOW = 0 } = fs.constants;

const sameIdentity = (stats: Stats, dir: Pick<DirRef, 'dev' | 'ino'>) => stats.dev === dir.dev && stats.ino === dir.ino;

/**
 * Is `path` (not followed) now the regular file `fd` holds, with one link? Where no descriptor name
 * can be had, the proof that a file read was the file named (a window remains, SECURITY.md); and
 * for a name the kernel's own naming cannot vouch for (isStillNamedIn), with `unchanged`:
 * - An lstat looks the name up, then counts the file's links: two moments. A name put back, found,
 *   then renamed away and unlinked between them is counted as the outside link's one (CI met it).
 *   With `unchanged` the file's ctime, which every link, rename and unlink sets, is read before and
 *   after, the same on both sides, with one link: the file's links did not change meanwhile, so the
 *   name found was its only one. Linux 6.13 and later stamp a change after such a read finely
 *   enough to tell (kept-ctime.ts stampsEveryChange). A file written meanwhile is refused too.
 * - An unlink drops the count before it stamps the ctime, both under the folder's lock: the lock
 *   is taken (waitForNameChanges, Linux) before the second read.
 * - `changedBeforeMs`: where changes within one clock tick share a stamp, the file must also not
 *   have changed since then (CTIME_SLACK_MS before now).
 * - `statName`: how the name is looked up (tests play the race with it).
 */
export function isSoleLinkAt(
  path: string,
  fd: number,
  { unchanged = false, changedBeforeMs, statName = lstatName }: SoleLinkOptions = {},
): boolean {
  try {
    const before = fs.fstatSync(fd, { bigint: true });
    if (before.nlink > 1n) return false;
    if (changedBeforeMs !== undefined && before.ctimeNs >= BigInt(Math.floor(changedBeforeMs)) * 1_000_000n) {
      return false;
    }
    const now = statName(path);
    if (now === undefined || !now.isFile() || now.nlink > 1n || now.dev !== before.dev || now.ino !== before.ino) {
      return false;
    }
    if (!unchanged) return true;
    if (process.platform === 'linux') waitForNameChanges(dirname(path));
    const after = fs.fstatSync(fd, { bigint: true });
    return after.nlink <= 1n && after.ctimeNs === before.ctimeNs;
  } catch {
    return false;
  }
}

interface SoleLinkOptions {
  unchanged?: boolean;
  changedBeforeMs?: number | undefined;
  statName?: StatName;
}

/** lstat of a name without following it: `undefined` when nothing is there. */
export type StatName = (path: string) => fs.BigIntStats | undefined;
const lstatName: StatName = (path) => fs.lstatSync(path, { throwIfNoEntry: false, bigint: true });

/** What the kernel calls descriptor `fd` (its path, or '' when it cannot say). */
export function procNameOf(fd: number): string {
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return '';
  }
}

/**
 * Is descriptor `fd` still the entry `name` of the folder held as `dirFd` (proc-fd mode)? Asked
 * after an fstat that found one link, then the folder's lock (see procFdFs's stillNamed).
 * - The whole name must be the folder's and `name`: a file renamed into another folder and
 *   unlinked there loses its link under THAT folder's lock, not this one's.
 * - A name ending in ' (deleted)' is also what the kernel calls the descriptor of an unlinked
 *   entry: 'h.txt (deleted)' opened, renamed to 'h.txt' and unlinked reads the same. For such a
 *   name the entry must also still be this file, with one link, unchanged while that is checked;
 *   where this kernel stamps changes coarsely, unchanged for CTIME_SLACK_MS too (a file just
 *   written under such a name is skipped until then).
 * `dirName`: procNameOf(dirFd), when the caller asks for many files of one folder.
 */
export function isStillNamedIn(fd: number, dirFd: number, name: string, dirName = procNameOf(dirFd)): boolean {
  if (dirName === '' || procNameOf(fd) !== (dirName === '/' ? `/${name}` : `${dirName}/${name}`)) return false;
  if (!name.endsWith(' (deleted)')) return true;
  const changedBeforeMs = stampsEveryChange(dirFd) ? undefined : Date.now() - CTIME_SLACK_MS;
  return isSoleLinkAt(`/proc/self/fd/${dirFd}/${name}`, fd, { unchanged: true, changedBeforeMs });
}

function procFdFs(): AnchoredFs {
  const at = (dir: DirRef, name: string) =>
    name === '' ? `/proc/self/fd/${dir.fd}` : `/proc/self/fd/${dir.fd}/${name}`;
  const refOf = (fd: number, path: string): DirRef => {
    const stats = fs.fstatSync(fd);
    return { fd, path, dev: stats.dev, ino: stats.ino };
  };
  return {
    mode: 'proc-fd',
    at,
    // The root is the one trusted name: its real path is what absolute symlink targets are compared with.
    openRoot(path) {
      const fd = fs.openSync(path, O_PATH | O_DIRECTORY);
      return refOf(fd, fs.readlinkSync(`/proc/self/fd/${fd}`));
    },
    openDir: (dir, name) => refOf(fs.openSync(at(dir, name), O_PATH | O_DIRECTORY | O_NOFOLLOW), join(dir.path, name)),
    // The magic link /proc/self/fd/N is the one symlink followed on purpose: it IS the folder held.
    reopen: (dir) => refOf(fs.openSync(at(dir, ''), O_PATH | O_DIRECTORY), dir.path),
    close: (dir) => fs.closeSync(dir.fd),
    lstat: (dir, name) => fs.lstatSync(at(dir, name), { throwIfNoEntry: false }),
    readlink: (dir, name) => fs.readlinkSync(at(dir, name)),
    readdir: (dir) => fs.readdirSync(at(dir, ''), { withFileTypes: true }),
    openFile: (dir, name, flags, mode) => fs.openSync(at(dir, name), flags | O_NOFOLLOW, mode),
    // The kernel names a descriptor by the directory entry it was opened through, and appends
    // ' (deleted)' once that entry is unlinked; an unlinked entry never comes back (a new link is a
    // new entry). But unlink drops the link count BEFORE it marks the entry deleted, both under the
    // folder's lock: waitForNameChanges takes that lock once, so an unlink the count already showed
    // has finished marking when the name is read.
    stillNamed(fd, dir, name) {
      try {
        waitForNameChanges(at(dir, ''));
      } catch {
        return false;
      }
      return isStillNamedIn(fd, dir.fd, name);
    },
    namedAfterListing: (fd, dir, name) => isStillNamedIn(fd, dir.fd, name),
    mkdir: (dir, name, mode) => fs.mkdirSync(at(dir, name), mode === undefined ? undefined : { mode }),
    rename: (fromDir, fromName, toDir, toName) => fs.renameSync(at(fromDir, fromName), at(toDir, toName)),
    renameOut: (dir, name, destination) => fs.renameSync(at(dir, name), destination),
    unlink: (dir, name) => fs.unlinkSync(at(dir, name)),
    rmdir: (dir, name) => fs.rmdirSync(at(dir, name)),
    symlink: (target, dir, name) => fs.symlinkSync(target, at(dir, name)),
    verify: () => undefined,
    stat: (dir) => fs.fstatSync(dir.fd),
    syncDir: (dir) => syncPath(at(dir, '')),
  };
}

function checkedPathFs(): AnchoredFs {
  const verify = (dir: DirRef) => {
    const now = fs.lstatSync(dir.path, { throwIfNoEntry: false });
    if (now === undefined || !now.isDirectory() || !sameIdentity(now, dir)) throw swappedError(dir.path);
  };
  const at = (dir: DirRef, name: string) => (name === '' ? dir.path : join(dir.path, name));
  // Runs `use` on a checked folder and checks the folder again after: what `use` touched was in it.
  const inDir = <T>(dir: DirRef, use: () => T): T => {
    verify(dir);
    const value = use();
    verify(dir);
    return value;
  };
  // No descriptor names here: the name must still be the file (a window remains, SECURITY.md).
  const stillNamed = (fd: number, dir: DirRef, name: string): boolean => {
    try {
      return inDir(dir, () => isSoleLinkAt(at(dir, name), fd));
    } catch {
      return false;
    }
  };
  return {
    mode: 'checked-path',
    at,
    openRoot(path) {
      const real = fs.realpathSync.native(path);
      const stats = fs.lstatSync(real);
      if (!stats.isDirectory()) throw Object.assign(new Error(`'${path}' is not a folder`), { code: 'ENOTDIR' });
      return { fd: -1, path: real, dev: stats.dev, ino: stats.ino };
    },
    openDir: (dir, name) =>
      inDir(dir, () => {
        const path = at(dir, name);
        const stats = fs.lstatSync(path);
        if (stats.isSymbolicLink()) throw Object.assign(new Error(`'${path}' is a symbolic link`), { code: 'ELOOP' });
        if (!stats.isDirectory()) throw Object.assign(new Error(`'${path}' is not a folder`), { code: 'ENOTDIR' });
        return { fd: -1, path, dev: stats.dev, ino: stats.ino };
      }),
    reopen: (dir) => inDir(dir, () => ({ ...dir })),
    close: () => undefined,
    lstat: (dir, name) => inDir(dir, () => fs.lstatSync(at(dir, name), { throwIfNoEntry: false })),
    readlink: (dir, name) => inDir(dir, () => fs.readlinkSync(at(dir, name))),
    readdir: (dir) => inDir(dir, () => fs.readdirSync(dir.path, { withFileTypes: true })),
    openFile(dir, name, flags, mode) {
      return inDir(dir, () => {
        const path = at(dir, name);
        const before = fs.lstatSync(path, { throwIfNoEntry: false });
        if (before?.isSymbolicLink() === true) throw swappedError(path);
        const fd = fs.openSync(path, flags | O_NOFOLLOW, mode);
        // Windows has no O_NOFOLLOW: a symlink swapped in would be followed; the identity check catches it.
        const opened = fs.fstatSync(fd);
        if (before !== undefined && !sameIdentity(opened, before)) {
          fs.closeSync(fd);
          throw swappedError(path);
        }
        return fd;
      });
    },
    stillNamed,
    namedAfterListing: stillNamed,
    mkdir: (dir, name, mode) =>
      inDir(dir, () => fs.mkdirSync(at(dir, name), mode === undefined ? undefined : { mode })),
    rename: (fromDir, fromName, toDir, toName) =>
      inDir(fromDir, () => inDir(toDir, () => fs.renameSync(at(fromDir, fromName), at(toDir, toName)))),
    renameOut: (dir, name, destination) => inDir(dir, () => fs.renameSync(at(dir, name), destination)),
    unlink: (dir, name) => inDir(dir, () => fs.unlinkSync(at(dir, name))),
    rmdir: (dir, name) => inDir(dir, () => fs.rmdirSync(at(dir, name))),
    symlink: (target, dir, name) => inDir(dir, () => fs.symlinkSync(target, at(dir, name))),
    verify,
    stat(dir) {
      const stats = fs.lstatSync(dir.path);
      if (!stats.isDirectory() || !sameIdentity(stats, dir)) throw swappedError(dir.path);
      return stats;
    },
    syncDir: (dir) => syncPath(dir.path),
  };
}

/** Descriptors where the kernel offers lookups relative to them (Linux with /proc), checks elsewhere. */
export function defaultAnchorMode(): AnchorMode {
  return process.platform === 'linux' && fs.existsSync('/proc/self/fd') ? 'proc-fd' : 'checked-path';
}

/** `FAMILIAR_ANCHOR_MODE=checked-path` runs the portable mode on Linux (tests of the macOS/Windows path). */
export function createAnchoredFs(mode: AnchorMode = modeFromEnvironment()): AnchoredFs {
  return mode === 'proc-fd' ? procFdFs() : checkedPathFs();
}

function modeFromEnvironment(): AnchorMode {
  const asked = process.env['FAMILIAR_ANCHOR_MODE'];
  return asked === 'checked-path' || asked === 'proc-fd' ? asked : defaultAnchorMode();
}
