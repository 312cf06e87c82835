import * as fs from 'node:fs';
import type { AnchoredFiles } from './anchored-batch';
import { isSoleLinkAt, isStillNamedIn, procNameOf, waitForNameChanges } from './anchored-fs';
import { closeOpened } from './walk-opened-files';
import { CTIME_SLACK_MS, linkedAloneSince } from './kept-ctime';

/**
 * How the file workers open the files a job names (the sandbox's way, anchored-fs.ts), for a thread
 * that holds no sandbox of its own: runs in worker threads (fs-worker.ts) and in-process alike.
 */

const { O_RDONLY, O_NONBLOCK = 0, O_NOFOLLOW = 0, O_DIRECTORY = 0 } = fs.constants;
// O_PATH is not in Node's constants; the same value on every Linux architecture.
const O_PATH = 0o10000000;
const openFlags = O_RDONLY | O_NONBLOCK | O_NOFOLLOW;
// Files read but not yet confirmed (their descriptors open) per folder: one folder lock for these.
const confirmBatch = 64;

export type AnchoredOpener = ReturnType<typeof anchoredOpener>;

/** `settledMs`: CTIME_SLACK_MS, less in tests (kept-ctime.ts linkedAloneSince). */
export function anchoredOpener(files: AnchoredFiles, settledMs = CTIME_SLACK_MS) {
  const proc = files.mode === 'proc-fd';
  const { root } = files;
  // Made before any file is opened: a link added or removed after it sets a later ctime.
  const linkedAlone = linkedAloneSince(files.mode, root, settledMs);
  /** The folders from the root (not included) to the one entered, held by O_PATH descriptors (proc-fd mode). */
  const chain: { name: string; fd: number; ctimeMs?: number }[] = [];
  let rootOk: boolean;
  try {
    const s = proc ? fs.fstatSync(root.fd) : fs.lstatSync(root.path);
    rootOk = s.isDirectory() && s.dev === root.dev && s.ino === root.ino;
  } catch {
    rootOk = false;
  }
  let current = -1;
  let currentOk = false;
  let prefix = '';
  let dirPath = '';
  let currentDirFd = -1; // proc-fd mode: the folder entered, held by `chain` or the root
  const dirStillThere = (index: number) => {
    if (proc) return true;
    const spec = files.dirs[index]!;
    const s = fs.lstatSync(dirPath, { throwIfNoEntry: false });
    return s !== undefined && s.isDirectory() && s.dev === spec.dev && s.ino === spec.ino;
  };
  const enter = (index: number): boolean => {
    if (index === current) return currentOk;
    confirmPending(); // their folder's descriptor is about to be closed
    current = index;
    currentOk = false;
    if (!rootOk) return false;
    const spec = files.dirs[index]!;
    const parts = spec.rel === '' ? [] : spec.rel.split('/');
    if (!proc) {
      dirPath = parts.length === 0 ? root.path : `${root.path}/${parts.join('/')}`;
      prefix = `${dirPath}/`;
      currentOk = dirStillThere(index);
      return currentOk;
    }
    let common = 0;
    while (common < chain.length && common < parts.length && chain[common]!.name === parts[common]) common += 1;
    while (chain.length > common) fs.closeSync(chain.pop()!.fd);
    try {
      for (let i = common; i < parts.length; i += 1) {
        const parent = i === 0 ? root.fd : chain[i - 1]!.fd;
        const fd = fs.openSync(`/proc/self/fd/${parent}/${parts[i]}`, O_PATH | O_DIRECTORY | O_NOFOLLOW);
        chain.push({ name: parts[i]!, fd });
      }
    } catch {
      return false; // swapped for a link, or gone: none of its files is read
    }
    const dirFd = parts.length === 0 ? root.fd : chain[parts.length - 1]!.fd;
    const s = fs.fstatSync(dirFd);
    if (s.dev !== spec.dev || s.ino !== spec.ino) return false;
    prefix = `/proc/self/fd/${dirFd}/`;
    currentDirFd = dirFd;
    currentOk = true;
    return true;
  };
  /**
   * A file opened with one link is read, but what was read is kept only once that link is
   * confirmed to be the name we opened (anchored-fs.ts stillNamed): a hard link to an outside file
   * unlinked from the workspace between our open and our fstat shows one link too, the outside
   * one. On Linux the kernel marks a descriptor's name ' (deleted)' once its entry is unlinked, but
   * only after dropping the count, both under the folder's lock; so the folder's lock is taken
   * (a read of its entries) AFTER the fstat and before the names are read: once per folder for up
   * to `confirmBatch` files, the descriptors held open meanwhile. Elsewhere the name must still be
   * this file with one link (a window remains, SECURITY.md). A file whose ctime shows its one link
   * was its only one at the open (linkedAloneSince: most files, unchanged for seconds) needs none of it.
   */
  const confirming = files.hardLinks === 'refuse';
  /** Per file: 1 once open() found its one link its only one by its ctime (no name to confirm). */
  const alone = confirming ? new Uint8Array(files.names.length) : undefined;
  // `confirmed`: no name to check (the walk's descriptor, or one link by its ctime), waiting only so
  // that results keep the job's order.
  const pending: { fd: number; name: string; keep: () => void; confirmed?: true }[] = [];
  const closeAll = (entries: { fd: number }[]) => {
    for (const entry of entries) fs.closeSync(entry.fd);
  };
  /** Files whose name was checked under their folder's lock (tests: the ctime rule spares most). */
  let namesChecked = 0;
  const confirmPending = () => {
    if (pending.length === 0) return;
    const batch = pending.splice(0);
    const dirName = procNameOf(currentDirFd);
    let settled = false;
    try {
      waitForNameChanges(prefix.slice(0, -1));
      settled = true;
    } catch {
      // The folder is gone or unreadable: nothing of it is confirmed.
    }
    for (const { fd, name, keep, confirmed } of batch) {
      if (confirmed !== true) namesChecked += 1;
      const named = confirmed === true || (settled && isStillNamedIn(fd, currentDirFd, name, dirName));
      fs.closeSync(fd);
      if (named) keep();
    }
  };
  // The walk's descriptors (AnchoredFiles.opened), marked -1 in the batch itself once handed out:
  // close() shuts the rest, and a second job over the same batch reads none of them.
  const held = files.opened;
  const fromWalk = held === undefined ? undefined : new Uint8Array(held.length);
  /** A descriptor on the regular file, or undefined when it is not (any more) one the sandbox would read. */
  const open = (i: number): number | undefined => {
    const given = held?.[i] ?? -1;
    if (given >= 0) {
      // Opened and confirmed by the walk: it is read as is.
      held![i] = -1;
      fromWalk![i] = 1;
      return given;
    }
    const dirIndex = files.dirOf[i]!;
    if (!enter(dirIndex)) return undefined;
    const path = prefix + files.names[i]!;
    const before = proc ? undefined : fs.lstatSync(path, { throwIfNoEntry: false });
    if (!proc && before?.isFile() !== true) return undefined;
    let fd: number;
    try {
      fd = fs.openSync(path, openFlags);
    } catch {
      return undefined; // vanished, or became a symlink / unreadable since the walk: skip like rg does
    }
    const s = fs.fstatSync(fd);
    const refused =
      !s.isFile() ||
      (files.hardLinks === 'refuse' && s.nlink > 1) ||
      (before !== undefined && (before.dev !== s.dev || before.ino !== s.ino)) ||
      !dirStillThere(dirIndex);
    if (refused) {
      fs.closeSync(fd);
      return undefined;
    }
    if (alone !== undefined) alone[i] = linkedAlone(s) ? 1 : 0;
    return fd;
  };
  return {
    open,
    get namesChecked() {
      return namesChecked;
    },
    /**
     * Done reading `fd` (from open(i)): `keep` runs once the file is confirmed to be one the
     * sandbox would read (now, or at a later settle/finish); the descriptor is closed either way.
     */
    settle(i: number, fd: number, keep: () => void): void {
      const sure = fromWalk?.[i] === 1 || alone?.[i] === 1;
      if (sure && pending.length > 0) {
        pending.push({ fd, name: files.names[i]!, keep, confirmed: true });
      } else if (!confirming || sure) {
        fs.closeSync(fd);
        keep();
      } else if (proc) {
        pending.push({ fd, name: files.names[i]!, keep });
        if (pending.length >= confirmBatch) confirmPending();
      } else {
        const sole = isSoleLinkAt(prefix + files.names[i]!, fd);
        fs.closeSync(fd);
        if (sole) keep();
      }
    },
    /** Confirms what is still pending (the end of a job). */
    finish(): void {
      confirmPending();
    },
    /**
     * Is file `i`, now, the very file a program that opened it by its name after `sinceMs` read, as
     * it is: a regular file (with one link, unless hard links are allowed) that has not changed since,
     * under folders that have not either (their ctime: pointing a name elsewhere, adding or removing
     * a link, a write, each sets the ctime of what it moved or changed; the root is held by its
     * descriptor)? Undefined where that cannot be told this way (checked-path mode). Mounting a
     * folder over one on the way changes no ctime: that needs privileges (SECURITY.md).
     */
    unchangedSince(i: number, sinceMs: number, seen?: fs.Stats): boolean | undefined {
      if (!proc) return undefined;
      if (!enter(files.dirOf[i]!)) return false;
      // Only on the root's own file system (kept-ctime.ts judged that one): a folder mounted inside
      // from elsewhere (NFS, FUSE) keeps another clock's ctimes, so its files count as changed.
      for (const folder of chain) {
        if (folder.ctimeMs === undefined) {
          const stats = fs.fstatSync(folder.fd);
          folder.ctimeMs = stats.dev === root.dev ? stats.ctimeMs : Infinity;
        }
        if (folder.ctimeMs >= sinceMs) return false;
      }
      const s = seen ?? fs.lstatSync(prefix + files.names[i]!, { throwIfNoEntry: false });
      return (
        s !== undefined && s.isFile() && s.dev === root.dev && (!confirming || s.nlink === 1) && s.ctimeMs < sinceMs
      );
    },
    /**
     * The first bytes of file `i` read into `into`, opened as open(i) opens it, and the file's stats
     * taken after the read (unchangedSince's `seen`: the file by its name then, so what was read is
     * what it was since); undefined when it is not one the sandbox would read. Its name is not
     * confirmed (settle): this serves a verdict on a file unchangedSince() then vouches for.
     */
    head(i: number, into: Buffer): { read: number; stats: fs.Stats } | undefined {
      const fd = open(i);
      if (fd === undefined) return undefined;
      try {
        const read = fs.readSync(fd, into, 0, into.length, 0);
        return { read, stats: fs.fstatSync(fd) };
      } catch {
        return undefined;
      } finally {
        fs.closeSync(fd);
      }
    },
    lstat(i: number): fs.Stats | undefined {
      const dirIndex = files.dirOf[i]!;
      if (!enter(dirIndex)) return undefined;
      const s = fs.lstatSync(prefix + files.names[i]!, { throwIfNoEntry: false });
      return dirStillThere(dirIndex) ? s : undefined;
    },
    /** Releases everything; what was not confirmed by finish() is dropped. */
    close() {
      closeAll(pending.splice(0));
      if (held !== undefined) closeOpened(held);
      while (chain.length > 0) fs.closeSync(chain.pop()!.fd);
    },
  };
}
