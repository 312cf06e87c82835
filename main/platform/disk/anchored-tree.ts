import * as fs from 'node:fs';
import { join } from 'node:path';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { AnchoredFs, DirRef } from './anchored-fs';
import { openParentStrict } from './anchored-resolve';
import { fsError } from './fs-errors';
import type { SandboxCore } from './sandbox-core';
import type { ResolvedPath } from './resolved-path';

const { O_RDONLY, O_NONBLOCK = 0 } = fs.constants;

const missingRoot = (display: string) =>
  err<never>('file_not_found', `The folder holding '${display}' does not exist (it was moved or deleted).`);

/**
 * Copies every byte from one open descriptor into a just-opened target, a megabyte at a time, then
 * syncs and closes the target (the source stays with the caller).
 */
function copyInto(source: number, target: number): void {
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    for (let position = 0; ;) {
      const read = fs.readSync(source, buffer, 0, buffer.length, position);
      if (read === 0) break;
      fs.writeSync(target, buffer, 0, read);
      position += read;
    }
    fs.fsyncSync(target);
  } finally {
    fs.closeSync(target);
  }
}

/** Copies one file's bytes out of a verified descriptor into a new file at `destination`. */
function copyFileOut(anchored: AnchoredFs, dir: DirRef, name: string, destination: string): void {
  const source = anchored.openFile(dir, name, O_RDONLY | O_NONBLOCK);
  try {
    const stats = fs.fstatSync(source);
    if (!stats.isFile()) return; // a FIFO or device swapped in: nothing worth keeping
    copyInto(source, fs.openSync(destination, 'wx', stats.mode & 0o777));
  } finally {
    fs.closeSync(source);
  }
}

/**
 * Copies an entry out of the workspace into Familiar's data (a trash or backup slot), descending
 * folders by descriptor; symlinks are copied as links, never followed. Bytes, never hard links.
 */
function copyTreeOut(anchored: AnchoredFs, dir: DirRef, name: string, destination: string): void {
  const stats = anchored.lstat(dir, name);
  if (stats === undefined) return;
  if (stats.isSymbolicLink()) {
    fs.symlinkSync(anchored.readlink(dir, name), destination);
  } else if (stats.isDirectory()) {
    fs.mkdirSync(destination, { mode: 0o700 });
    const sub = anchored.openDir(dir, name);
    try {
      for (const entry of anchored.readdir(sub)) copyTreeOut(anchored, sub, entry.name, join(destination, entry.name));
    } finally {
      anchored.close(sub);
    }
  } else if (stats.isFile()) {
    copyFileOut(anchored, dir, name, destination);
  }
}

/** Copies an entry to another place inside the roots (a move across file systems), by descriptors. */
function copyTreeWithin(anchored: AnchoredFs, fromDir: DirRef, fromName: string, toDir: DirRef, toName: string): void {
  const stats = anchored.lstat(fromDir, fromName);
  if (stats === undefined) throw Object.assign(new Error(`'${fromName}' vanished`), { code: 'ENOENT' });
  if (stats.isSymbolicLink()) {
    anchored.symlink(anchored.readlink(fromDir, fromName), toDir, toName);
  } else if (stats.isDirectory()) {
    anchored.mkdir(toDir, toName, stats.mode & 0o777);
    const from = anchored.openDir(fromDir, fromName);
    const to = anchored.openDir(toDir, toName);
    try {
      for (const entry of anchored.readdir(from)) copyTreeWithin(anchored, from, entry.name, to, entry.name);
    } finally {
      anchored.close(from);
      anchored.close(to);
    }
  } else if (stats.isFile()) {
    const source = anchored.openFile(fromDir, fromName, O_RDONLY | O_NONBLOCK);
    try {
      const createFlags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL;
      copyInto(source, anchored.openFile(toDir, toName, createFlags, stats.mode & 0o777));
    } finally {
      fs.closeSync(source);
    }
  }
}

/** Removes an entry and, for a folder, everything in it, descending by descriptor. */
export function removeTree(anchored: AnchoredFs, dir: DirRef, name: string): void {
  const stats = anchored.lstat(dir, name);
  if (stats === undefined) return;
  if (stats.isDirectory()) {
    const sub = anchored.openDir(dir, name);
    try {
      for (const entry of anchored.readdir(sub)) removeTree(anchored, sub, entry.name);
    } finally {
      anchored.close(sub);
    }
    anchored.rmdir(dir, name);
  } else {
    anchored.unlink(dir, name);
  }
}

const isCrossDevice = (error: unknown) => (error as NodeJS.ErrnoException).code === 'EXDEV';

/**
 * Renames an entry (a symlink moves as a link, never followed), both ends walked strictly from
 * their roots. Across file systems (the workspace and the persona folder may differ) it copies by
 * descriptors, then removes the source.
 */
export function moveEntry(core: SandboxCore, from: ResolvedPath, to: ResolvedPath): Result<void> {
  const fromRoot = core.rootOf(from);
  const toRoot = core.rootOf(to);
  if (fromRoot === undefined) return missingRoot(from.display);
  if (toRoot === undefined) return missingRoot(to.display);
  try {
    const source = openParentStrict(core.anchored, fromRoot, from.realRel, core.isProtected);
    try {
      const target = openParentStrict(core.anchored, toRoot, to.realRel, core.isProtected);
      try {
        try {
          core.anchored.rename(source.dir, source.name, target.dir, target.name);
        } catch (error) {
          if (!isCrossDevice(error)) throw error;
          copyTreeWithin(core.anchored, source.dir, source.name, target.dir, target.name);
          removeTree(core.anchored, source.dir, source.name);
        }
        core.anchored.syncDir(target.dir);
        return ok(undefined);
      } finally {
        target.release();
      }
    } finally {
      source.release();
    }
  } catch (error) {
    return fsError(error, from.display);
  }
}

/**
 * A file moved out that still shares its inode with another name (a hard link, perhaps to a file
 * outside the workspace) is replaced by a private copy, so Familiar's data never holds a link to
 * anything. `destination` is in Familiar's data, out of the workspace's reach: plain paths are safe.
 */
function breakHardLinks(destination: string): void {
  const stats = fs.lstatSync(destination);
  if (stats.isDirectory()) {
    for (const name of fs.readdirSync(destination)) breakHardLinks(join(destination, name));
  } else if (stats.isFile() && stats.nlink > 1) {
    const copy = `${destination}.unlinked`;
    fs.copyFileSync(destination, copy, fs.constants.COPYFILE_EXCL);
    fs.renameSync(copy, destination);
  }
}

/**
 * Runs `act` on the entry's parent folder (held open by descriptor) and name, mapping a file-system
 * error to a typed one: what moving and copying out share.
 */
function withParent(core: SandboxCore, path: ResolvedPath, act: (dir: DirRef, name: string) => void): Result<void> {
  const root = core.rootOf(path);
  if (root === undefined) return missingRoot(path.display);
  try {
    const parent = openParentStrict(core.anchored, root, path.realRel, core.isProtected);
    try {
      act(parent.dir, parent.name);
      return ok(undefined);
    } finally {
      parent.release();
    }
  } catch (error) {
    return fsError(error, path.display);
  }
}

/** Moves an entry out of the workspace into `destination`, an absolute path in Familiar's data. */
export function moveOut(core: SandboxCore, path: ResolvedPath, destination: string): Result<void> {
  return withParent(core, path, (dir, name) => {
    try {
      core.anchored.renameOut(dir, name, destination);
      breakHardLinks(destination);
    } catch (error) {
      if (!isCrossDevice(error)) throw error;
      copyTreeOut(core.anchored, dir, name, destination);
      removeTree(core.anchored, dir, name);
    }
  });
}

/** Copies an entry's bytes out into `destination` in Familiar's data (a backup): never a hard link. */
export function copyOut(core: SandboxCore, path: ResolvedPath, destination: string): Result<void> {
  return withParent(core, path, (dir, name) => copyTreeOut(core.anchored, dir, name, destination));
}
