import { relative, sep } from 'node:path';
import { watch } from 'chokidar';
import type { FSWatcher } from 'chokidar';
import { EventStorm } from '../../platform/watching/event-storm';
import { isPersonaPath } from '../../platform/disk/workspace-sandbox';

/** How long the first query waits for the file watcher before indexing without it. */
const WATCH_READY_WAIT_MS = 2000;
/**
 * In a storm of events (EventStorm) chokidar would spend the app's time and memory: the watch drops
 * its watchers for STORM_PAUSE_MS (doubling while it goes on) and every query rescans (by identity:
 * unchanged files are not read).
 */
const STORM_PAUSE_MS = 5000;
const MAX_UNWATCHED_MS = 5 * 60 * 1000;

const builtInSkips = new Set(['.git', 'node_modules']);

/**
 * What the watch saw, as the semantic index needs it: `everything` when a .gitignore changed or a
 * watcher failed (only a full scan can be trusted then), else the workspace path that changed.
 */
export type WatchedChange =
  { readonly kind: 'everything' } | { readonly kind: 'new-folder' | 'gone-folder' | 'path'; readonly path: string };

/**
 * The semantic index's change feed: a recursive chokidar watcher on the workspace (and on the
 * persona folder when it overlays the root), names only, since what it reports is read again
 * through the sandbox. Split from the index so that the index holds what is indexed and this holds
 * when the watchers can be trusted: ready, dropped in a storm, paused, closed.
 */
export class SemanticChangeWatch {
  #watchers: FSWatcher[] = [];
  /** The watchers are up and crawled: their events can be trusted to report every change. */
  #ready = false;
  #failures = 0;
  #unwatchedUntil = 0;
  readonly #storm = new EventStorm();
  #closed = false;

  constructor(
    private readonly root: string,
    private readonly personaDir: string,
    private readonly onChange: (change: WatchedChange) => void,
  ) {}

  get ready(): boolean {
    return this.#ready;
  }

  /** No watchers running, none paused after a storm, not closed: start() may run. */
  get canStart(): boolean {
    return this.#watchers.length === 0 && !this.#closed && Date.now() >= this.#unwatchedUntil;
  }

  /** Starts the watchers; answers whether they are ready (false: dropped, or not ready in time). */
  async start(): Promise<boolean> {
    const root = this.root;
    const persona = this.personaDir;
    const overlay = root !== persona;
    // The same folders the walk leaves out (.git, node_modules, hidden ones, Familiar's data) are not
    // watched either: inotify watches are a per-user budget.
    const skipUnder = (base: string) => (abs: string) => {
      const rel = relative(base, abs);
      return (
        rel !== '' &&
        rel
          .split(sep)
          .some((segment) => builtInSkips.has(segment) || (segment.startsWith('.') && segment !== '.gitignore'))
      );
    };
    const onEvent = (base: string, accepts: (rel: string) => boolean) => (event: string, abs: string) => {
      if (this.#watchers.length === 0 || this.#stormed()) return;
      const rel = relative(base, abs).split(sep).join('/');
      if (rel === '' || rel.startsWith('..') || !accepts(rel)) return;
      if (rel === '.gitignore' || rel.endsWith('/.gitignore')) this.onChange({ kind: 'everything' });
      else if (event === 'addDir') this.onChange({ kind: 'new-folder', path: rel });
      else if (event === 'unlinkDir') this.onChange({ kind: 'gone-folder', path: rel });
      else this.onChange({ kind: 'path', path: rel });
    };
    const start = (base: string, accepts: (rel: string) => boolean) => {
      const watcher = watch(base, { ignoreInitial: true, followSymlinks: false, ignored: skipUnder(base) });
      watcher.on('all', onEvent(base, accepts));
      // A watcher that fails (no inotify watches left) must not leave a stale index: rescan per query.
      watcher.on('error', () => this.onChange({ kind: 'everything' }));
      this.#watchers.push(watcher);
      // A folder that keeps changing (or a very slow disk) can hold 'ready' back for minutes while
      // chokidar spends the app's time on it: answers whether it was ready in time.
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), WATCH_READY_WAIT_MS);
        watcher.once('ready', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    };
    const ready = await Promise.all([
      start(root, (rel) => !overlay || !isPersonaPath(rel)),
      ...(overlay ? [start(persona, isPersonaPath)] : []),
    ]);
    if (this.#watchers.length === 0) return false; // dropped meanwhile (a storm, or closed)
    if (ready.every(Boolean)) {
      this.#failures = 0;
      this.#ready = true;
    } else this.#drop();
    return this.#ready;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const watchers = this.#watchers;
    this.#watchers = [];
    this.#ready = false;
    await Promise.all(watchers.map((watcher) => watcher.close()));
  }

  /**
   * Goes without watchers for a while (every query rescans meanwhile), longer each time in a row:
   * a folder that never settles must not keep chokidar busy.
   */
  #drop(): void {
    const watchers = this.#watchers;
    this.#watchers = [];
    this.#ready = false;
    this.#failures += 1;
    this.#unwatchedUntil = Date.now() + Math.min(STORM_PAUSE_MS * 2 ** (this.#failures - 1), MAX_UNWATCHED_MS);
    void Promise.all(watchers.map((watcher) => watcher.close())).catch(() => undefined);
  }

  /** Counts an event; in a storm drops the watchers (queries rescan until they are back). */
  #stormed(): boolean {
    if (!this.#storm.begins()) return false;
    this.#drop();
    return true;
  }
}
