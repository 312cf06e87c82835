import { constants } from 'node:fs';
import { cp, lstat, mkdir, open, readdir, rename, rm, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { fsError } from './fs-errors';
import type { EntryFacts, ResolvedPath } from './workspace-sandbox';
import { factsOf } from './workspace-sandbox';

// O_NONBLOCK: a FIFO swapped in after the check cannot hang the open; O_NOFOLLOW: nor can a symlink
// swapped in for the final name redirect it (the real path has no final symlink by construction).
const readFlags = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;
const createFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
/** A temp file older than this is a crashed writer's, not a live one's (a 5 MB write takes well under). */
const staleTempMs = 30_000;

export interface OpenFile {
  readonly handle: FileHandle;
  readonly facts: EntryFacts;
}

/** Opens a regular file for reading; anything else (folder, FIFO, device, socket) is not_a_file. */
export async function openForRead(path: ResolvedPath): Promise<Result<OpenFile>> {
  if (path.facts === undefined) return fsError({ code: 'ENOENT' }, path.display);
  if (path.facts.kind !== 'file') return notAFile(path);
  let handle: FileHandle;
  try {
    handle = await open(path.real, readFlags);
  } catch (error) {
    return fsError(error, path.display);
  }
  const facts = factsOf(await handle.stat());
  if (facts.kind !== 'file') {
    await handle.close();
    return notAFile(path);
  }
  return ok({ handle, facts });
}

export function notAFile<T>(path: ResolvedPath): Result<T> {
  if (path.facts?.kind === 'directory') {
    return err('not_a_file', `'${path.display}' is a folder; use list_files to see its content.`);
  }
  return err(
    'not_a_file',
    `'${path.display}' is not a regular file (a FIFO, socket or device); tools do not read or write those.`,
  );
}

/** Reads a whole regular file of at most `maxBytes`. */
export async function readWholeFile(
  path: ResolvedPath,
  maxBytes: number,
  tooLarge: (size: number) => Result<never>,
): Promise<Result<{ bytes: Buffer; facts: EntryFacts }>> {
  const opened = await openForRead(path);
  if (!opened.ok) return opened;
  const { handle, facts } = opened.value;
  try {
    if (facts.size > maxBytes) return tooLarge(facts.size);
    const bytes = Buffer.allocUnsafe(facts.size);
    let filled = 0;
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return ok({ bytes: bytes.subarray(0, filled), facts });
  } finally {
    await handle.close();
  }
}

/** The first `count` bytes of a regular file (binary sniffing, encoding guesses). */
export async function readHead(path: ResolvedPath, count: number): Promise<Result<Buffer>> {
  const opened = await openForRead(path);
  if (!opened.ok) return opened;
  const { handle } = opened.value;
  try {
    const head = Buffer.alloc(count);
    const { bytesRead } = await handle.read(head, 0, count, 0);
    return ok(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

export interface AtomicWriteOptions {
  /** Permission bits to keep (the replaced file's); new files get the default (0666 & ~umask). */
  readonly mode?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Last check before the rename: the sandbox re-resolves the path here to narrow races. */
  readonly beforeCommit?: (() => Promise<Result<void>>) | undefined;
}

/**
 * Writes `bytes` to the real path `target` so that it holds either the old or the new content at
 * every instant, even if the process dies: a temp file in the same folder (created with O_EXCL |
 * O_NOFOLLOW, so nothing pre-planted is followed), fdatasync, rename over the target, fsync the folder.
 */
export async function writeFileAtomic(
  target: string,
  content: Uint8Array | readonly Uint8Array[],
  options: AtomicWriteOptions = {},
): Promise<Result<void>> {
  const pieces = content instanceof Uint8Array ? [content] : content;
  const dir = dirname(target);
  // Keep the temp name under NAME_MAX (255 bytes) whatever the target's name is.
  const stem = Buffer.from(basename(target))
    .subarray(0, 180)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
  let temp = join(dir, `.${stem}.familiar.tmp`);
  let handle: FileHandle | undefined;
  let committed = false;
  const mode = options.mode === undefined ? 0o666 : 0o600;
  try {
    try {
      handle = await open(temp, createFlags, mode);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A temp file left by a writer that died (SIGKILL, power loss) is removed here, on the next
      // write of the same file; a fresh one may belong to another live process: use another name.
      const stale = await lstat(temp).then(
        (stats) => Date.now() - stats.mtimeMs > staleTempMs,
        () => false,
      );
      if (stale) await unlink(temp).catch(() => undefined);
      else temp = join(dir, `.${stem}.familiar-${randomBytes(6).toString('hex')}.tmp`);
      handle = await open(temp, createFlags, mode);
    }
    if (options.mode !== undefined) await handle.chmod(options.mode & 0o7777);
    for (const bytes of pieces) {
      let written = 0;
      while (written < bytes.length) {
        const { bytesWritten } = await handle.write(bytes, written, bytes.length - written);
        written += bytesWritten;
      }
    }
    // fdatasync: the data and the size, which is what a reader after a crash needs.
    await handle.datasync();
    await handle.close();
    handle = undefined;
    if (options.signal?.aborted === true)
      return err('aborted', 'The call was stopped before the file was replaced; nothing changed.');
    const check = await options.beforeCommit?.();
    if (check !== undefined && !check.ok) return check;
    await rename(temp, target);
    committed = true;
    await syncDirectory(dir);
    return ok(undefined);
  } catch (error) {
    return fsError(error, basename(target));
  } finally {
    await handle?.close().catch(() => undefined);
    if (!committed) await unlink(temp).catch(() => undefined);
  }
}

/** Makes a rename durable; some platforms cannot open folders for fsync, which is fine to skip. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, constants.O_RDONLY).catch(() => undefined);
  if (handle === undefined) return;
  await handle.sync().catch(() => undefined);
  await handle.close();
}

/** Creates `dir` (and its missing parents when `parents`); the sandbox already checked where it lands. */
export async function makeDirectories(dir: string, parents = true): Promise<Result<void>> {
  try {
    await mkdir(dir, { recursive: parents });
    return ok(undefined);
  } catch (error) {
    return fsError(error, basename(dir));
  }
}

/**
 * Renames an entry (a symlink moves as a link, never followed). Across file systems (workspace and
 * persona folder may differ) it copies symlinks verbatim, then removes the source.
 */
export async function moveEntry(source: string, destination: string): Promise<Result<void>> {
  try {
    try {
      await rename(source, destination);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await cp(source, destination, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
      await rm(source, { recursive: true });
    }
    await syncDirectory(dirname(destination));
    return ok(undefined);
  } catch (error) {
    return fsError(error, basename(source));
  }
}

/** Entries in a folder (for "not empty" checks), or undefined when it cannot be read. */
export async function countEntries(dir: string): Promise<number | undefined> {
  return readdir(dir).then(
    (names) => names.length,
    () => undefined,
  );
}
