import * as fs from 'node:fs';
import type { AnchoredFs, DirRef } from './anchored-fs';

/**
 * The files a walk opens in a folder before it lists it (WalkOptions.openFirst): name → descriptor
 * and its fstat. Listing the folder takes its lock after those fstats, which is what confirming a
 * read needs (AnchoredFs.namedAfterListing), so a file the listing still shows under its name is
 * handed to the visitor as it was opened: one open, no second reading of the folder.
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

/** How one walk opens files before listing their folder, and which of them it hands over. */
export function walkOpenedFiles(anchored: AnchoredFs, hardLinks: 'refuse' | 'allow') {
  /** Closes what no visitor took (the folder's walk is over, or stopped). */
  const closeUntaken = (opened: OpenedFirst | undefined): void => {
    if (opened === undefined) return;
    for (const { fd } of opened.values()) fs.closeSync(fd);
    opened.clear();
  };

  const open = (dir: DirRef, names: Iterable<string>): OpenedFirst | undefined => {
    const opened: OpenedFirst = new Map();
    for (const name of names) {
      if (opened.has(name)) continue;
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
    return opened.size === 0 ? undefined : opened;
  };

  return {
    closeUntaken,

    /**
     * Opens `names` in `dir` (never through a symlink, regular files only), then lists `dir` with
     * `list`. What was opened is closed again when the listing fails (undefined) or throws.
     */
    openThenList<T>(dir: DirRef, names: Iterable<string> | undefined, list: () => T | undefined) {
      const opened = names === undefined ? undefined : open(dir, names);
      let entries: T | undefined;
      try {
        entries = list();
      } finally {
        if (entries === undefined) closeUntaken(opened);
      }
      return { opened: entries === undefined ? undefined : opened, entries };
    },

    /**
     * The file opened as `name`, taken out of `opened` once the folder was listed and the listing
     * showed a regular file there: kept when hard links are allowed, or when it has one link and is
     * still that name (a hard link to an outside file unlinked after the open shows one link too,
     * and the kernel has then marked the descriptor's name deleted). Closed otherwise.
     */
    take(opened: OpenedFirst | undefined, dir: DirRef, name: string) {
      const early = opened?.get(name);
      if (early === undefined) return undefined;
      opened!.delete(name);
      const sole = early.stats.nlink <= 1 && anchored.namedAfterListing(early.fd, dir, name);
      if (hardLinks !== 'refuse' || sole) return early;
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
