import * as fs from 'node:fs';
import type { AnchoredFs, DirRef } from './anchored-fs';
import { CTIME_SLACK_MS, linkedAloneSince } from './kept-ctime';
import { isEntryName } from './path-syntax';

/**
 * The files a walk opens in a folder before it reads it (WalkOptions.openFirst): name → descriptor
 * and its fstat. A file is handed to the visitor as it was opened, one open and no second reading of
 * the folder, when its one link was its only one at the open: its ctime says so, or its name still
 * does, checked after the folder's lock was taken (a listing after the fstats takes it,
 * AnchoredFs.namedAfterListing; a folder read name by name takes it then, AnchoredFs.stillNamed).
 */
export type OpenedFirst = Map<string, { readonly fd: number; readonly stats: fs.Stats }>;

/** Read-only, and a FIFO planted under a wanted name must not block the open. */
const readFlags = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

const fstatOrUndefined = (fd: number): fs.Stats | undefined => {
  try {
    return fs.fstatSync(fd);
  } catch {
    return undefined;
  }
};

/**
 * How one walk opens files before reading their folder, and which of them it hands over.
 * `root`: the workspace root the walk is under (its file system decides whether ctimes prove
 * anything, kept-ctime.ts); `settledMs`: CTIME_SLACK_MS, less in tests.
 */
export function walkOpenedFiles(
  anchored: AnchoredFs,
  hardLinks: 'refuse' | 'allow',
  root: DirRef,
  settledMs = CTIME_SLACK_MS,
) {
  // Made before any file is opened: a change to a file's links after it sets a later ctime.
  const linkedAlone = linkedAloneSince(anchored.mode, root, settledMs);

  /** Closes what no visitor took (the folder's walk is over, or stopped). */
  const closeUntaken = (opened: OpenedFirst | undefined): void => {
    if (opened === undefined) return;
    for (const { fd } of opened.values()) fs.closeSync(fd);
    opened.clear();
  };

  const open = (dir: DirRef, names: Iterable<string>): OpenedFirst | undefined => {
    const opened: OpenedFirst = new Map();
    try {
      for (const name of names) {
        // One name in this folder, never a path: a folder on the way would be followed if a link.
        if (opened.has(name) || !isEntryName(name)) continue;
        let fd: number;
        try {
          fd = anchored.openFile(dir, name, readFlags);
        } catch {
          continue; // gone, a symlink, unreadable: the walk judges it as it finds it
        }
        const stats = fstatOrUndefined(fd);
        if (stats?.isFile() === true) opened.set(name, { fd, stats });
        else fs.closeSync(fd);
      }
    } catch (error) {
      closeUntaken(opened); // the names given could not all be told (their iterator threw)
      throw error;
    }
    return opened.size === 0 ? undefined : opened;
  };

  return {
    closeUntaken,

    /**
     * Opens `names` in `dir` (never through a symlink, regular files only), then lists `dir` with
     * `list`, told what it opened. What was opened is closed again when the listing fails
     * (undefined) or throws.
     */
    openThenList<T>(
      dir: DirRef,
      names: Iterable<string> | undefined,
      list: (opened: OpenedFirst | undefined) => T | undefined,
    ) {
      const opened = names === undefined ? undefined : open(dir, names);
      let entries: T | undefined;
      try {
        entries = list(opened);
      } finally {
        if (entries === undefined) closeUntaken(opened);
      }
      return { opened: entries === undefined ? undefined : opened, entries };
    },

    /**
     * The file opened as `name`, taken out of `opened` once the walk found a regular file there:
     * kept when hard links are allowed, or when it has one link that was its only one at the open.
     * That is shown by its ctime (kept-ctime.ts linkedAloneSince), or else by its name: a hard link to an outside
     * file unlinked after the open shows one link too, and the kernel has then marked the
     * descriptor's name deleted. `listedAfter`: the folder was listed after the fstat, which took
     * the lock that name needs (AnchoredFs.namedAfterListing); otherwise it is taken here. Closed
     * when not kept.
     */
    take(opened: OpenedFirst | undefined, dir: DirRef, name: string, listedAfter: boolean) {
      const early = opened?.get(name);
      if (early === undefined) return undefined;
      opened!.delete(name);
      if (hardLinks !== 'refuse') return early;
      const { fd, stats } = early;
      const sole =
        stats.nlink <= 1 &&
        (linkedAlone(stats) ||
          (listedAfter ? anchored.namedAfterListing(fd, dir, name) : anchored.stillNamed(fd, dir, name)));
      if (sole) return early;
      fs.closeSync(early.fd);
      return undefined;
    },
  };
}

/**
 * Closes descriptors a walk handed out (WalkEntry.opened) that nobody will read: each is set to -1
 * as it is closed (-1 entries are passed over), so closing twice closes nothing twice.
 */
export function closeOpened(descriptors: Int32Array): void {
  for (const [i, fd] of descriptors.entries()) {
    if (fd < 0) continue;
    descriptors[i] = -1;
    fs.closeSync(fd);
  }
}
