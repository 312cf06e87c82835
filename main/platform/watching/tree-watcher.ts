import * as fs from 'node:fs';
import type { AnchoredFs, DirRef } from '../disk/anchored-fs';
import { EventStorm } from './event-storm';
import { parseWorkspacePath } from '../disk/path-syntax';

/** More changed paths than this since the last full refresh: a walk is cheaper than resolving each. */
const MAX_DIRTY = 256;

/**
 * Linux file systems whose changes may come from elsewhere (another machine, a FUSE daemon): the
 * kernel's notifications do not see those, so a watcher there vouches for nothing. NFS, SMB, CIFS,
 * SMB2, FUSE, 9P, AFS, Ceph (statfs f_type).
 */
const REMOTE_TYPES = new Set([0x6969, 0x517b, 0xff534d42, 0xfe534d42, 0x65735546, 0x01021997, 0x5346414f, 0x00c36400]);

function isRemote(path: string): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return REMOTE_TYPES.has(fs.statfsSync(path).type);
  } catch {
    return true; // cannot tell: assume the worst
  }
}

/**
 * Only inotify (Linux) queues a change's event during the writer's own system call, so that it is
 * readable before any later request: FSEvents (macOS) and ReadDirectoryChangesW (Windows) deliver
 * later, so there a watcher cannot promise the very next query, and queries walk.
 */
export const watcherVouches = process.platform === 'linux';

interface Watch {
  readonly watcher: fs.FSWatcher;
  readonly dev: number;
  readonly ino: number;
  /** The round that last saw this folder in its walk. */
  round: number;
}

/** One full walk (an index build or refresh) re-establishing the watches. */
export interface WatchRound {
  /** The walk found this folder (not hidden, not ignored): watch it before it is read. */
  folder(parent: DirRef, name: string, relPath: string): void;
  /** The walk is over (`ok`: and the index holds what it found): trusted again if nothing broke meanwhile. */
  end(ok: boolean): void;
}

/** What a query may rely on while the watcher is trusted. */
export interface WatchView {
  /** Workspace paths (files or folders) that changed since the last full refresh began. */
  readonly dirty: ReadonlySet<string>;
  /** A folder the last full walk found, and watched. */
  isFolder(relPath: string): boolean;
  /**
   * The identity of the folder watched at `relPath` (undefined: none is): a folder put in its place
   * since is an event of its parent's, so while the path is not dirty this is the folder there.
   */
  folderId(relPath: string): { readonly dev: number; readonly ino: number } | undefined;
}

/**
 * Change hints for search_in_code's index (issue 16 item 4): one non-recursive fs.watch per folder
 * a full walk found (Linux: on the folder's anchored descriptor path, so a folder swapped for a
 * symlink is never followed). An event only marks a workspace path dirty, synchronously, in the
 * callback: nothing is read here; queries resolve and read dirty paths through the sandbox.
 *
 * Trusted only while every folder of the last full walk got its watch, no watch reported an error,
 * no flood happened and no ignore rule (.gitignore, .git/info/exclude) changed since that walk
 * began. Otherwise queries walk and compare every file, and the next full walk restores trust.
 */
export class TreeWatcher {
  private readonly watches = new Map<string, Watch>();
  private readonly gitWatches: fs.FSWatcher[] = [];
  private readonly dirty = new Map<string, number>();
  private seq = 0;
  private breaks = 0;
  private round = 0;
  private trusted = false;
  /** A storm of events (a checkout, a build): nothing is vouched for after it. */
  private readonly storm = new EventStorm();
  private closed = false;

  /** `onChange`: every event, trust lost or not (the owner schedules a refresh). */
  constructor(
    private readonly anchored: AnchoredFs,
    private readonly onChange: () => void,
  ) {}

  /** The view a query may answer from, or undefined: walk. */
  view(): WatchView | undefined {
    if (!this.trusted || this.dirty.size > MAX_DIRTY) return undefined;
    return {
      dirty: new Set(this.dirty.keys()),
      isFolder: (relPath) => this.watches.has(relPath),
      folderId: (relPath) => {
        const watch = this.watches.get(relPath);
        return watch === undefined ? undefined : { dev: watch.dev, ino: watch.ino };
      },
    };
  }

  /**
   * Starts a full walk of the workspace from `root` (its descriptor): the root and its .git/info
   * watched now, each folder as the walk meets it (before it is read, so a change while the walk
   * goes on is still heard). A folder that cannot be watched leaves the watcher untrusted.
   */
  begin(root: DirRef): WatchRound {
    const round = ++this.round;
    const mark = { seq: this.seq, breaks: this.breaks };
    let failed = false;
    // A mount inside the workspace counts too: each device the walk meets is asked once (its file
    // system type is the device's), not each folder.
    const remoteByDev = new Map<number, boolean>();
    if (!this.watchFolder(root, '', round, remoteByDev)) failed = true;
    this.watchGit(root);
    return {
      folder: (parent, name, relPath) => {
        if (!this.openAndWatch(parent, name, relPath, round, remoteByDev)) failed = true;
      },
      end: (ok) => {
        if (this.closed) return;
        // Folders the walk no longer found: their watches go.
        for (const [relPath, watch] of this.watches) {
          if (watch.round !== round) {
            watch.watcher.close();
            this.watches.delete(relPath);
          }
        }
        if (!ok) {
          this.trusted = false;
          return;
        }
        // Changes heard before the walk began are in the index now; later ones stay dirty.
        for (const [path, seq] of this.dirty) if (seq <= mark.seq) this.dirty.delete(path);
        this.trusted = !failed && this.breaks === mark.breaks;
      },
    };
  }

  /**
   * Folders that appeared after the last full walk (a catch-up walks a new folder): each watched as
   * the walk meets it, before it is read, under that walk's round. One that cannot be watched ends
   * the trust, as in a full walk.
   */
  grow(): Pick<WatchRound, 'folder'> {
    const remoteByDev = new Map<number, boolean>();
    return {
      folder: (parent, name, relPath) => {
        if (!this.closed && !this.openAndWatch(parent, name, relPath, this.round, remoteByDev)) this.breakTrust();
      },
    };
  }

  /**
   * A folder that is gone or was renamed: its watches and those below it go. (inotify follows the
   * inode, so a renamed folder's old watches would go on naming its changes by the old path.)
   */
  forget(relPath: string): void {
    for (const [path, watch] of this.watches) {
      if (path !== '' && (path === relPath || path.startsWith(`${relPath}/`))) {
        watch.watcher.close();
        this.watches.delete(path);
      }
    }
  }

  private openAndWatch(
    parent: DirRef,
    name: string,
    relPath: string,
    round: number,
    remoteByDev: Map<number, boolean>,
  ): boolean {
    let dir: DirRef;
    try {
      dir = this.anchored.openDir(parent, name);
    } catch {
      return false; // swapped or gone since the walk listed it: its parent's watch heard that
    }
    try {
      return this.watchFolder(dir, relPath, round, remoteByDev);
    } finally {
      this.anchored.close(dir);
    }
  }

  /** Watches one folder for `round` (kept when already watched as the same folder); false: it vouches for nothing. */
  private watchFolder(dir: DirRef, relPath: string, round: number, remoteByDev: Map<number, boolean>): boolean {
    let remote = remoteByDev.get(dir.dev);
    if (remote === undefined) {
      remote = isRemote(this.anchored.at(dir, ''));
      remoteByDev.set(dir.dev, remote);
    }
    const existing = this.watches.get(relPath);
    if (existing !== undefined && existing.dev === dir.dev && existing.ino === dir.ino) {
      existing.round = round;
      return !remote;
    }
    existing?.watcher.close();
    this.watches.delete(relPath);
    const watcher = this.watch(dir, (name) => this.folderEvent(relPath, name));
    if (watcher === undefined) return false;
    this.watches.set(relPath, { watcher, dev: dir.dev, ino: dir.ino, round });
    return !remote;
  }

  /** The changed paths and the mark of the last event of each: for a catch-up, then `settle`. */
  dirtyMarks(): Map<string, number> {
    return new Map(this.dirty);
  }

  /**
   * A catch-up looked at these paths after their marks and the index holds what it found (issue 32
   * item 3): those that changed again since stay dirty, the others are clean without a walk.
   */
  settle(marks: ReadonlyMap<string, number>): void {
    for (const [path, seq] of marks) if (this.dirty.get(path) === seq) this.dirty.delete(path);
  }

  /**
   * Paths a tool of this app just wrote (as the call named them): marked at once, without waiting
   * for their events (which come too and mark them again).
   */
  mark(paths: readonly string[]): void {
    for (const raw of paths) {
      const parsed = parseWorkspacePath(raw);
      // The root itself (a run in '.') would send every query back to the walk: its events suffice.
      if (!parsed.ok || parsed.value === '') continue;
      this.seq += 1;
      this.dirty.set(parsed.value, this.seq);
    }
  }

  close(): void {
    this.closed = true;
    this.trusted = false;
    for (const watch of this.watches.values()) watch.watcher.close();
    this.watches.clear();
    for (const watcher of this.gitWatches.splice(0)) watcher.close();
  }

  private watch(dir: DirRef, onName: (name: string | null) => void): fs.FSWatcher | undefined {
    try {
      // Linux: /proc/self/fd/<n>, the folder the descriptor holds (inotify keeps the inode, not the
      // name; the descriptor may close after). Elsewhere the path checked when the folder was opened.
      const watcher = fs.watch(this.anchored.at(dir, ''), { persistent: false, encoding: 'utf8' }, (_event, name) =>
        onName(name),
      );
      watcher.on('error', () => {
        watcher.close();
        for (const [relPath, watch] of this.watches) if (watch.watcher === watcher) this.watches.delete(relPath);
        this.breakTrust();
      });
      return watcher;
    } catch {
      return undefined; // out of inotify watches (ENOSPC), no permission: queries walk
    }
  }

  /** .git/info/exclude is an ignore file too: .git and .git/info are watched for it (not followed). */
  private watchGit(root: DirRef): void {
    for (const watcher of this.gitWatches.splice(0)) watcher.close();
    let git: DirRef | undefined;
    try {
      git = this.anchored.openDir(root, '.git');
    } catch {
      return; // no .git folder: its creation shows up at the root
    }
    const gitWatch = this.watch(git, (name) => {
      if (name === 'info' || name === null) this.breakTrust();
    });
    if (gitWatch !== undefined) this.gitWatches.push(gitWatch);
    try {
      const info = this.anchored.openDir(git, 'info');
      const infoWatch = this.watch(info, (name) => {
        if (name === 'exclude' || name === null) this.breakTrust();
      });
      if (infoWatch !== undefined) this.gitWatches.push(infoWatch);
      this.anchored.close(info);
    } catch {
      // no .git/info: its creation is an event in .git
    } finally {
      this.anchored.close(git);
    }
  }

  private folderEvent(folder: string, name: string | null): void {
    this.seq += 1;
    if (this.storm.begins()) this.breakTrust();
    // No name (the kernel's queue overflowed), a name that did not decode, an ignore file, or .git
    // itself at the root (.git/info/exclude may have come or gone): what is ignored may have changed.
    if (name === null || name === '' || name.includes('\ufffd') || name === '.gitignore') {
      this.breakTrust();
      return;
    }
    if (folder === '' && name === '.git') {
      this.breakTrust();
      return;
    }
    // Hidden names are never searched (an atomic write's hidden temp file shows up as its rename).
    if (name.startsWith('.')) return;
    this.dirty.set(folder === '' ? name : `${folder}/${name}`, this.seq);
    this.onChange();
  }

  private breakTrust(): void {
    this.breaks += 1;
    this.trusted = false;
    this.onChange();
  }
}
