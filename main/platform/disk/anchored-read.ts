import { constants, fstatSync } from 'node:fs';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { openDirStrict, openParentStrict } from './anchored-resolve';
import { fsError } from './fs-errors';
import { OpenedFile } from './opened-file';
import type { SandboxCore } from './sandbox-core';
import type { EntryFacts, EntryKind, ResolvedPath } from './resolved-path';
import { factsOf, kindOf } from './resolved-path';

// O_NONBLOCK: a FIFO swapped in after the check cannot hang the open; O_NOFOLLOW (added by the
// anchored open): nor can a symlink swapped in for the final name redirect it.
const readFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

export interface OpenFile {
  readonly handle: OpenedFile;
  readonly facts: EntryFacts;
}

export function notAFile<T>(path: Pick<ResolvedPath, 'display' | 'facts'>): Result<T> {
  if (path.facts?.kind === 'directory') {
    return err('not_a_file', `'${path.display}' is a folder; use list_files to see its content.`);
  }
  return err(
    'not_a_file',
    `'${path.display}' is not a regular file (a FIFO, socket or device); tools do not read or write those.`,
  );
}

export const hardLinkRefused = (display: string, links: number) =>
  err<never>(
    'hard_link_refused',
    `'${display}' has ${links} hard links: its content may be a file outside the workspace under another name, so tools do not read it. ` +
      'The user can allow hard-linked files in Settings → Workspace.',
    { links },
  );

/**
 * The link count (one) was taken after the name we opened was unlinked: the file may be a hard link
 * to an outside file that someone unlinked from the workspace between our open and our fstat — one
 * link left, the outside one. Asked in that order (count, then name), a name still linked proves it
 * was the only one when counted.
 */
const unlinkedWhileOpened = (display: string) =>
  err<never>(
    'hard_link_refused',
    `'${display}' was unlinked or replaced while it was being opened, so it may be a hard link to a file outside the workspace; tools do not read it. Try again.`,
    { links: 1 },
  );

const missingRoot = (display: string) =>
  err<never>('file_not_found', `The folder holding '${display}' does not exist (it was moved or deleted).`);

/**
 * Opens the regular file `path` names, walking its real name again from the root without following
 * anything: the descriptor returned is the file that was checked, or the call fails.
 */
export function openForRead(core: SandboxCore, path: ResolvedPath): Result<OpenFile> {
  if (path.facts === undefined) return fsError({ code: 'ENOENT' }, path.display);
  if (path.facts.kind !== 'file') return notAFile(path);
  const root = core.rootOf(path);
  if (root === undefined) return missingRoot(path.display);
  let parent: ReturnType<typeof openParentStrict>;
  let fd: number;
  try {
    parent = openParentStrict(core.anchored, root, path.realRel, core.isProtected);
  } catch (error) {
    return fsError(error, path.display);
  }
  try {
    try {
      fd = core.anchored.openFile(parent.dir, parent.name, readFlags);
    } catch (error) {
      return fsError(error, path.display);
    }
    const handle = new OpenedFile(fd);
    let facts: EntryFacts;
    try {
      facts = factsFromFd(fd);
    } catch (error) {
      void handle.close();
      return fsError(error, path.display);
    }
    const refused: Result<never> | undefined =
      facts.kind !== 'file'
        ? notAFile({ display: path.display, facts })
        : core.hardLinks !== 'refuse'
          ? undefined
          : facts.nlink > 1
            ? hardLinkRefused(path.display, facts.nlink)
            : !core.anchored.stillNamed(fd, parent.dir, parent.name)
              ? unlinkedWhileOpened(path.display)
              : undefined;
    if (refused !== undefined) {
      void handle.close();
      return refused;
    }
    return ok({ handle, facts });
  } finally {
    parent.release();
  }
}

/**
 * Opens `path` as openForRead does and hands the open file to `use`, closing it however `use` ends:
 * a read's descriptor is released in this one place.
 */
export async function withOpenFile<T>(
  core: SandboxCore,
  path: ResolvedPath,
  use: (file: OpenFile) => Promise<Result<T>>,
): Promise<Result<T>> {
  const opened = openForRead(core, path);
  if (!opened.ok) return opened;
  try {
    return await use(opened.value);
  } finally {
    await opened.value.handle.close();
  }
}

function factsFromFd(fd: number): EntryFacts {
  // fstat through the descriptor: the facts of what was opened, not of whatever the name is now.
  return factsOf(fstatSync(fd));
}

/**
 * Reads a whole regular file of at most `maxBytes`: into `into` when it is big enough (the bytes
 * answered are then a view of it), else into a buffer of its own.
 */
export async function readWholeFile(
  core: SandboxCore,
  path: ResolvedPath,
  maxBytes: number,
  tooLarge: (size: number) => Result<never>,
  into?: Buffer,
): Promise<Result<{ bytes: Buffer; facts: EntryFacts }>> {
  return withOpenFile(core, path, async ({ handle, facts }) => {
    if (facts.size > maxBytes) return tooLarge(facts.size);
    const bytes =
      into !== undefined && into.length >= facts.size
        ? await handle.readInto(into, facts.size)
        : await handle.readAll(facts.size);
    return ok({ bytes, facts });
  });
}

/** The first `count` bytes of a regular file (binary sniffing, encoding guesses). */
export async function readHead(core: SandboxCore, path: ResolvedPath, count: number): Promise<Result<Buffer>> {
  return withOpenFile(core, path, async ({ handle }) => ok(await handle.readAll(count)));
}

/** The target text of a symlink (resolved with followFinal: false). */
export function readLink(core: SandboxCore, path: ResolvedPath): Result<string> {
  const root = core.rootOf(path);
  if (root === undefined) return missingRoot(path.display);
  try {
    const parent = openParentStrict(core.anchored, root, path.realRel, core.isProtected);
    try {
      return ok(core.anchored.readlink(parent.dir, parent.name));
    } finally {
      parent.release();
    }
  } catch (error) {
    return fsError(error, path.display);
  }
}

export interface DirEntryFacts {
  readonly name: string;
  readonly kind: EntryKind;
  /** With `withFacts`: lstat of the entry through the folder's descriptor (undefined if gone meanwhile). */
  readonly facts?: EntryFacts | undefined;
}

/** The entries of a folder (names and kinds as the directory says), read through its descriptor. */
export function listDir(core: SandboxCore, path: ResolvedPath, withFacts = false): Result<DirEntryFacts[]> {
  if (path.facts?.kind !== 'directory') return err('not_a_directory', `'${path.display}' is not a folder.`);
  const root = core.rootOf(path);
  if (root === undefined) return missingRoot(path.display);
  try {
    const opened = openDirStrict(core.anchored, root, path.realRel, core.isProtected);
    try {
      return ok(
        core.anchored.readdir(opened.dir).map((entry): DirEntryFacts => {
          const kind = kindOf(entry);
          if (!withFacts) return { name: entry.name, kind };
          const stats = core.anchored.lstat(opened.dir, entry.name);
          return { name: entry.name, kind, facts: stats && factsOf(stats) };
        }),
      );
    } finally {
      opened.release();
    }
  } catch (error) {
    return fsError(error, path.display);
  }
}
