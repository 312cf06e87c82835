import { basename, dirname } from 'node:path';
import { watch } from 'chokidar';
import type { FSWatcher } from 'chokidar';
import type { ChangeKind } from './change-batcher';

export interface WatchTarget {
  /** The folder as the tree names it ('' is the root). */
  readonly relDir: string;
  /** Where it really is. */
  readonly realDir: string;
  /** Which entry names belong to the tree (the root and the persona folder share relDir ''). */
  readonly accepts?: (name: string) => boolean;
}

export interface FolderWatcher {
  /** Watches the entries directly inside a listed folder; resolves once changes there are seen. */
  watch(target: WatchTarget): Promise<void>;
  /** Stops watching this folder and every folder below it (it was deleted or renamed away). */
  forget(relDir: string): Promise<void>;
  close(): Promise<void>;
}

export interface FolderWatcherOptions {
  readonly onChange: (kind: ChangeKind, relPath: string, isDirectory: boolean) => void;
  readonly onError: (error: unknown) => void;
  /** A folder whose watch is not ready by then is listed anyway (a slow disk must not hang the tree). */
  readonly readyTimeoutMs?: number;
}

const kinds: Record<string, { kind: ChangeKind; isDirectory: boolean } | undefined> = {
  add: { kind: 'add', isDirectory: false },
  addDir: { kind: 'add', isDirectory: true },
  change: { kind: 'change', isDirectory: false },
  unlink: { kind: 'remove', isDirectory: false },
  unlinkDir: { kind: 'remove', isDirectory: true },
};

const isBelow = (relDir: string, candidate: string) =>
  relDir === '' || candidate === relDir || candidate.startsWith(`${relDir}/`);

/**
 * Watches only the folders the tree has listed, one level each (chokidar `depth: 0`): a project
 * with node_modules costs inotify watches only for what the user opened, and nothing is scanned
 * ahead of time. One chokidar instance per folder, so each has its own 'ready' and its own close.
 */
export function createFolderWatcher(options: FolderWatcherOptions): FolderWatcher {
  const watchers = new Map<string, { readonly target: WatchTarget; readonly watcher: FSWatcher }>();
  const readyTimeoutMs = options.readyTimeoutMs ?? 2000;
  let closed = false;

  const keyOf = (target: WatchTarget) => `${target.relDir}\0${target.realDir}`;

  const start = (target: WatchTarget): Promise<void> => {
    // followSymlinks: false — a link to a folder is an entry here, never a door to watch through.
    const watcher = watch(target.realDir, { depth: 0, ignoreInitial: true, followSymlinks: false });
    watchers.set(keyOf(target), { target, watcher });
    watcher.on('all', (event, path) => {
      const mapped = kinds[event];
      // depth 0 reports the folder's own entries; the folder itself is its parent's business.
      if (mapped === undefined || dirname(path) !== target.realDir) return;
      const name = basename(path);
      if (target.accepts !== undefined && !target.accepts(name)) return;
      const relPath = target.relDir === '' ? name : `${target.relDir}/${name}`;
      if (mapped.kind === 'remove' && mapped.isDirectory) void forget(relPath);
      options.onChange(mapped.kind, relPath, mapped.isDirectory);
    });
    watcher.on('error', options.onError);
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, readyTimeoutMs);
      watcher.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  };

  const pendingStarts = new Map<string, Promise<void>>();

  const forget = async (relDir: string) => {
    const doomed = [...watchers.entries()].filter(
      ([, { target }]) => target.relDir !== '' && isBelow(relDir, target.relDir),
    );
    for (const [key] of doomed) {
      watchers.delete(key);
      pendingStarts.delete(key);
    }
    await Promise.all(doomed.map(([, { watcher }]) => watcher.close()));
  };

  return {
    watch(target) {
      if (closed) return Promise.resolve();
      const key = keyOf(target);
      let started = pendingStarts.get(key);
      if (started === undefined || !watchers.has(key)) {
        started = start(target);
        pendingStarts.set(key, started);
      }
      return started;
    },
    forget,
    async close() {
      closed = true;
      const all = [...watchers.values()];
      watchers.clear();
      pendingStarts.clear();
      await Promise.all(all.map(({ watcher }) => watcher.close()));
    },
  };
}
