import type { Result } from '../../../shared/result';
import type { RootAnchor } from './anchored-batch';
import { listDir, openForRead, readHead, readLink, readWholeFile, withOpenFile } from './anchored-read';
import type { DirEntryFacts, OpenFile } from './anchored-read';
import { openDirStrict, openParentStrict } from './anchored-resolve';
import { fsError } from './fs-errors';
import { join } from 'node:path';
import { ok } from '../../../shared/result';
import { copyOut, moveEntry, moveOut } from './anchored-tree';
import { createNewFile, makeDirectories, writeFileAtomic } from './anchored-write';
import type { AtomicWriteOptions } from './anchored-write';
import type { OpenedFile } from './opened-file';
import type { EntryFacts, ResolvedPath } from './resolved-path';
import type { SandboxCore } from './sandbox-core';
import { isIgnoredEntry } from './walk-ignore-rules';
import { walkWorkspace } from './workspace-walker';
import type { WalkOptions } from './workspace-walker';

/**
 * Every operation on workspace bytes. Each takes a path `resolve` answered and walks its real name
 * again from the root WITHOUT following anything: a swap since the check makes the call fail, never
 * reach outside. Nothing here takes an absolute workspace path.
 */
export interface SandboxIo {
  openForRead(path: ResolvedPath): Result<OpenFile>;
  /** Opens `path` for `use` and closes it once `use` ends, however it ends. */
  withOpenFile<T>(path: ResolvedPath, use: (file: OpenFile) => Promise<Result<T>>): Promise<Result<T>>;
  /** `into`: a buffer to read into when it is big enough (the answer is then a view of it). */
  readWholeFile(
    path: ResolvedPath,
    maxBytes: number,
    tooLarge: (size: number) => Result<never>,
    into?: Buffer,
  ): Promise<Result<{ bytes: Buffer; facts: EntryFacts }>>;
  readHead(path: ResolvedPath, count: number): Promise<Result<Buffer>>;
  readLink(path: ResolvedPath): Result<string>;
  listDir(path: ResolvedPath, withFacts?: boolean): Result<DirEntryFacts[]>;
  walk(start: ResolvedPath, options: WalkOptions): Promise<Result<{ stopped: boolean }>>;
  /** Would a walk call this entry ignored (git's rules, .git, node_modules)? Persona entries never are. */
  isIgnored(path: ResolvedPath): boolean;
  writeFileAtomic(
    path: ResolvedPath,
    content: Uint8Array | readonly Uint8Array[],
    options?: AtomicWriteOptions,
  ): Promise<Result<void>>;
  createNewFile(path: ResolvedPath, mode?: number): Result<OpenedFile>;
  makeDirectories(path: ResolvedPath, parents?: boolean): Result<void>;
  moveEntry(from: ResolvedPath, to: ResolvedPath): Result<void>;
  /** Moves an entry into Familiar's data (the trash), by its absolute destination there. */
  moveOut(path: ResolvedPath, destination: string): Result<void>;
  /** Copies an entry's bytes into Familiar's data (a backup). */
  copyOut(path: ResolvedPath, destination: string): Result<void>;
  /** The root a worker thread opens files under (AnchoredBatch); undefined when it does not exist. */
  anchorOf(inPersona: boolean): RootAnchor | undefined;
  /**
   * A folder held open for a child process's working directory: on Linux `/proc/self/fd/<fd>`,
   * which the child enters before it runs anything, so a swap after the check cannot move it
   * elsewhere. Release it once the child has started.
   */
  holdFolder(path: ResolvedPath): Result<HeldFolder>;
  /**
   * The absolute path a change watcher is pointed at. A watcher only learns names; whatever it
   * reports is resolved through the sandbox again before anything is shown or read.
   */
  watchPathOf(path: ResolvedPath): string | undefined;
  /** The identity of the folder holding the real entry (for AnchoredBatch), walked strictly. */
  parentIdOf(path: ResolvedPath): { readonly dev: number; readonly ino: number } | undefined;
}

export interface HeldFolder {
  /** What to pass as `cwd`. */
  readonly cwd: string;
  /**
   * The descriptor holding it (Linux), for a child to inherit and name as `/proc/self/fd/<n>`
   * after exec (git's --git-dir); undefined where folders are checked by path.
   */
  readonly fd: number | undefined;
  release(): void;
}

export function createSandboxIo(core: SandboxCore): SandboxIo {
  return {
    openForRead: (path) => openForRead(core, path),
    withOpenFile: (path, use) => withOpenFile(core, path, use),
    readWholeFile: (path, maxBytes, tooLarge, into) => readWholeFile(core, path, maxBytes, tooLarge, into),
    readHead: (path, count) => readHead(core, path, count),
    readLink: (path) => readLink(core, path),
    listDir: (path, withFacts) => listDir(core, path, withFacts),
    walk: (start, options) => walkWorkspace(core, start, options),
    isIgnored: (path) => !path.inPersona && isIgnoredEntry(core, path.realRel, path.facts?.kind === 'directory'),
    writeFileAtomic: (path, content, options) => writeFileAtomic(core, path, content, options),
    createNewFile: (path, mode) => createNewFile(core, path, mode),
    makeDirectories: (path, parents) => makeDirectories(core, path, parents),
    moveEntry: (from, to) => moveEntry(core, from, to),
    moveOut: (path, destination) => moveOut(core, path, destination),
    copyOut: (path, destination) => copyOut(core, path, destination),
    holdFolder(path) {
      const root = core.rootOf(path);
      if (root === undefined) return fsError({ code: 'ENOENT' }, path.display);
      try {
        const held = openDirStrict(core.anchored, root, path.realRel, core.isProtected);
        const dir = held.dir === root.dir ? core.anchored.reopen(root.dir) : held.dir;
        return ok({
          cwd: core.anchored.at(dir, ''),
          fd: dir.fd >= 0 ? dir.fd : undefined,
          release: () => core.anchored.close(dir),
        });
      } catch (error) {
        return fsError(error, path.display);
      }
    },
    watchPathOf(path) {
      const root = core.rootOf(path);
      return root === undefined ? undefined : path.realRel === '' ? root.dir.path : join(root.dir.path, path.realRel);
    },
    parentIdOf(path) {
      const root = core.rootOf(path);
      if (root === undefined) return undefined;
      try {
        const parent = openParentStrict(core.anchored, root, path.realRel, core.isProtected);
        const id = { dev: parent.dir.dev, ino: parent.dir.ino };
        parent.release();
        return id;
      } catch {
        return undefined;
      }
    },
    anchorOf(inPersona) {
      const root = core.rootOf({ inPersona });
      return root === undefined ? undefined : { mode: core.anchored.mode, dir: root.dir, hardLinks: core.hardLinks };
    },
  };
}
