import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { AnchoredBatch } from '../../../platform/disk/anchored-batch';
import type { AnchoredFs } from '../../../platform/disk/anchored-fs';
import type { DenyList } from '../../../platform/disk/deny-list';
import { TreeWatcher, watcherVouches } from '../../../platform/watching/tree-watcher';
import type { WatchRound, WatchView } from '../../../platform/watching/tree-watcher';
import type { FsWorkerPool } from '../../../platform/search-engines/fs-worker-pool';
import type { ForegroundGate } from '../../../platform/search-engines/foreground-gate';
import type { WalkEntry } from '../../../platform/disk/workspace-walker';
import { isPersonaPath } from '../../../platform/disk/workspace-sandbox';
import type { WorkspaceSandbox } from '../../../platform/disk/workspace-sandbox';
import { writeFileAtomic } from '../../../platform/storage/atomic-file';
import { dataFileExists, openDataRanges } from '../../../platform/storage/binary-file';
import { ensureFolder } from '../../../platform/storage/folders';
import { FileVerdict, NgramIndex } from './ngram-index';
import { openSavedIndex, saveIndex } from './ngram-file';
import { FILES_PER_JOB, fillIndex } from './ngram-build';
import type { NgramState, NgramStatus } from './ngram-status';
import { ALL } from './trigram-plan';

/** Saved format; another number (or another workspace) means the file is rebuilt. */
const FORMAT = 2;
/** Saving costs a copy of the index: at most this often after changes. */
const SAVE_DELAY_MS = 5000;
/**
 * A background refresh (a walk with a stat per file) after changes, when the watcher cannot vouch
 * for what it heard: coalesced.
 */
const REFRESH_DELAY_MS = 5000;
/** While the watcher is trusted, the paths it heard about are indexed again this soon (coalesced). */
const CATCH_UP_DELAY_MS = 1000;
/**
 * Files changed less than this before they were read are "racy" (ngram-types.ts NGRAM_RACY): file
 * times tick coarsely, up to 2 s on FAT and 1 s on HFS+.
 */
const RACY_MS = 2500;
/** Share of dead file numbers (files indexed again) above which the index is rebuilt from scratch. */
const MAX_DEAD_SHARE = 0.3;

export type { NgramState, NgramStatus } from './ngram-status';

type Listener = (status: NgramStatus) => void;

/** The walk's facts of a file a query found stale: enough to read it the anchored way. */
export type StaleEntry = Pick<WalkEntry, 'relPath' | 'inPersona' | 'dirRealRel' | 'dirId' | 'name'>;

/**
 * The trigram index of one workspace: loaded from the data folder (validated: format, workspace
 * identity; every file's size and ctime at each query) or built in the background by the file
 * workers, then kept fresh by what queries find stale and by refreshes the watcher and the tools
 * ask for. Never in the way: until it is ready, search_in_code scans.
 */
export class WorkspaceNgram {
  private index: NgramIndex | undefined;
  private state: NgramState = 'idle';
  private walked = 0;
  private building: NgramIndex | undefined;
  private diskBytes: number | undefined;
  private buildMs: number | undefined;
  private error: string | undefined;
  private readonly listeners = new Set<Listener>();
  private readonly pending = new Map<string, StaleEntry>();
  private queue: Promise<unknown> = Promise.resolve();
  /** A save and a refresh waiting for their delay (enqueueLater). */
  private readonly timers = new Map<'save' | 'refresh' | 'catch-up', NodeJS.Timeout>();
  /** The saved index being read (ready() started it): a query waits for it, not for a build. */
  private opening: Promise<void> | undefined;
  /** Starts that read at once, while it waits for the calls to end (see ready()). */
  private hurryOpening: AbortController | undefined;
  private sandbox: WorkspaceSandbox | undefined;
  private readonly stop = new AbortController();
  private readonly watcher: TreeWatcher | undefined;
  /** The deny-list the last full walk applied: another one and the watcher vouches for nothing. */
  private walkedDenyList: DenyList | undefined;

  /** `anchored`: the change watcher watches folders through it (without it, every query walks). */
  constructor(
    private readonly storeFile: string,
    private readonly workers: FsWorkerPool,
    private readonly racyMs = RACY_MS,
    anchored?: AnchoredFs,
    private readonly background: {
      /** Tool calls hold it while they run: builds, refreshes and catch-ups wait meanwhile. */
      readonly foreground?: ForegroundGate;
      /** How soon the paths the watcher heard about are indexed again (tests lengthen it). */
      readonly catchUpMs?: number;
    } = {},
  ) {
    this.watcher =
      anchored === undefined || !watcherVouches ? undefined : new TreeWatcher(anchored, () => this.noteChanged());
  }

  status(): NgramStatus {
    const index = this.state === 'ready' ? this.index : this.building;
    return {
      state: this.state,
      files: index?.files ?? 0,
      walked: this.walked,
      textBytes: index?.textBytes ?? 0,
      memoryBytes: index?.memoryBytes ?? 0,
      ...(this.diskBytes === undefined ? {} : { diskBytes: this.diskBytes }),
      ...(this.buildMs === undefined ? {} : { buildMs: this.buildMs }),
      ...(this.error === undefined ? {} : { error: this.error }),
    };
  }

  /** Progress and state changes (for the UI); returns the unsubscribe. */
  onStatus(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The index when it can answer, else undefined (and a load or build starts in the background).
   * A saved index is read once the tool calls end: the query that asked does not wait for it
   * (ripgrep walks meanwhile) and should not share the cores with it (the first search after a
   * restart); one that waits for it (answering) starts it at once. With none saved the state turns
   * 'building' at once (the build itself waits for the calls).
   */
  ready(sandbox: WorkspaceSandbox): NgramIndex | undefined {
    this.sandbox = sandbox;
    if (this.state === 'idle') {
      this.state = 'loading';
      const saved = dataFileExists(this.storeFile);
      const hurry = (this.hurryOpening = new AbortController());
      const opening = this.enqueue(async () => {
        const held = saved ? this.pause(hurry.signal) : undefined;
        if (held !== undefined) await held;
        this.hurryOpening = undefined;
        await this.loadOrBuild();
      });
      this.opening = opening;
      void opening.then(() => {
        if (this.opening === opening) this.opening = undefined;
      });
    }
    return this.state === 'ready' ? this.index : undefined;
  }

  /**
   * For a query: the index when it can answer. A saved index being opened is waited for (reading
   * its headers costs tens of milliseconds, issue 32 item 2); a build or a refresh never is.
   */
  async answering(sandbox: WorkspaceSandbox): Promise<NgramIndex | undefined> {
    const now = this.ready(sandbox);
    if (now !== undefined || this.state !== 'loading') return now;
    this.hurryOpening?.abort();
    await this.opening;
    return this.ready(sandbox);
  }

  /**
   * The change watcher's view, when a query may answer from the index without walking: the index is
   * ready, the watcher trusted, the deny-list the one the last full walk applied. First one turn of
   * the event loop: a write another program finished before this query was asked queued its inotify
   * event in the kernel during its write() call, so that event was readable before the request that
   * brought this query; libuv handles every descriptor one poll found ready before it runs
   * setImmediate callbacks, so by then the watcher has marked the path. (An event read in an
   * earlier poll was marked then.)
   */
  async watched(sandbox: WorkspaceSandbox): Promise<WatchView | undefined> {
    if (this.watcher === undefined) return undefined;
    await nextTurn();
    if (this.state !== 'ready' || sandbox.denyList !== this.walkedDenyList) return undefined;
    return this.watcher.view();
  }

  /** Workspace paths of the files in the ready index (a snapshot: reindexing may go on meanwhile). */
  indexedPaths(): string[] {
    return this.index === undefined ? [] : this.index.livePaths();
  }

  /** Resolves once the index is ready or failed (tests, the bench). */
  async settled(): Promise<NgramStatus> {
    for (;;) {
      const pending = this.queue;
      await pending;
      if (pending === this.queue) return this.status();
    }
  }

  /** Files a query found changed or new (it searched them): indexed again in the background. */
  reindex(sandbox: WorkspaceSandbox, entries: readonly StaleEntry[]): void {
    if (entries.length === 0) return;
    this.sandbox = sandbox;
    for (const entry of entries) this.pending.set(entry.relPath, entry);
    void this.enqueue(() => this.indexPending());
  }

  /**
   * Something changed in the workspace (the watcher, a tool's write): a refresh walk soon compares
   * every file with the index. Queries are exact meanwhile (they check every file themselves).
   */
  noteChanged(paths: readonly string[] = []): void {
    this.watcher?.mark(paths);
    if (this.state !== 'ready') return;
    // A trusted watcher names what changed: only that is looked at again (issue 32 item 3).
    if (this.watcher?.view() !== undefined && this.sandbox?.denyList === this.walkedDenyList) {
      this.enqueueLater('catch-up', this.background.catchUpMs ?? CATCH_UP_DELAY_MS, () => this.catchUp());
    } else this.refreshSoon();
  }

  async close(): Promise<void> {
    this.stop.abort();
    this.watcher?.close();
    for (const key of ['refresh', 'catch-up'] as const) {
      clearTimeout(this.timers.get(key));
      this.timers.delete(key);
    }
    await this.queue.catch(() => undefined);
    const save = this.timers.get('save');
    if (save !== undefined) {
      clearTimeout(save);
      this.timers.delete('save');
      await this.save().catch(() => undefined);
    }
    await this.index?.close();
  }

  private emit(): void {
    const status = this.status();
    for (const listener of this.listeners) listener(status);
  }

  /** Runs `task` after the tasks before it; answers when it is over (failed or not). */
  private enqueue(task: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(task).catch((error: unknown) => {
      this.state = this.index === undefined ? 'failed' : 'ready';
      this.error = (error as Error).message;
      this.emit();
    });
    return this.queue as Promise<void>;
  }

  /** Background work asks before each step: a promise while a tool call runs (foreground-gate.ts). */
  private readonly pause = (hurry?: AbortSignal): Promise<void> | undefined =>
    this.background.foreground?.idle(
      hurry === undefined ? this.stop.signal : AbortSignal.any([this.stop.signal, hurry]),
    );

  private identity(sandbox: WorkspaceSandbox) {
    const anchor = sandbox.anchorOf(false);
    return anchor === undefined
      ? undefined
      : { format: FORMAT, root: anchor.dir.path, dev: anchor.dir.dev, ino: anchor.dir.ino };
  }

  private async loadOrBuild(): Promise<void> {
    const sandbox = this.sandbox!;
    const identity = this.identity(sandbox);
    if (identity === undefined) throw new Error('the workspace folder is not open');
    this.emit();
    // The path and key tables now; the postings stay on disk until the background read below
    // (a query meanwhile reads the lists it needs). Another format, a truncated or damaged file:
    // built again (a cache, never misread).
    const file = await openDataRanges(this.storeFile);
    const loaded = file === undefined ? undefined : await openSavedIndex(file);
    if (loaded?.ok === true && JSON.stringify(loaded.identity) !== JSON.stringify(identity)) {
      await loaded.index.close();
    } else if (loaded?.ok === true) {
      this.index = loaded.index;
      this.diskBytes = file!.size;
      this.state = 'ready';
      this.emit();
      // The postings stay on disk for good: each query reads the lists it needs (the page cache
      // keeps them warm), so the index costs the heap its path and key tables only (issue 32 item 7).
      // Files changed while the app was closed are found by each query anyway; the refresh
      // indexes them again so queries stay selective (and lets the watcher vouch again).
      void this.enqueue(() => this.refresh());
      return;
    }
    // The build waits for its turn on the queue: the query that asked for it does not wait.
    this.state = 'building';
    this.emit();
    void this.enqueue(() => this.build(sandbox));
  }

  private async build(sandbox: WorkspaceSandbox): Promise<void> {
    const started = performance.now();
    const index = new NgramIndex();
    this.building = index;
    this.walked = 0;
    if (this.state !== 'ready') this.state = 'building';
    this.emit();
    const held = this.pause();
    if (held !== undefined) await held;
    const round = this.watchRound(sandbox);
    try {
      await fillIndex(index, sandbox, this.workers, {
        pause: this.pause,
        racyMs: this.racyMs,
        signal: this.stop.signal,
        round,
        onWalked: () => (this.walked += 1),
        onSegment: () => this.emit(),
      });
    } catch (error) {
      round?.end(false);
      throw error;
    }
    this.endRound(round, sandbox);
    const replaced = this.index;
    this.index = index;
    this.building = undefined;
    await replaced?.close();
    this.buildMs = performance.now() - started;
    this.state = 'ready';
    this.error = undefined;
    this.emit();
    await this.save();
  }

  /** Compares every file the walk finds with the index: changed and new ones indexed, vanished ones dropped. */
  private async refresh(): Promise<void> {
    const sandbox = this.sandbox;
    const index = this.index;
    if (sandbox === undefined || index === undefined) return;
    if (index.deadShare > MAX_DEAD_SHARE) {
      await this.build(sandbox);
      return;
    }
    const held = this.pause();
    if (held !== undefined) await held;
    const start = await sandbox.resolve('.', 'read');
    if (!start.ok) return;
    const verdict = index.selector(ALL);
    const seen = new Set<string>();
    const round = this.watchRound(sandbox);
    const walked = await sandbox.walk(start.value, {
      recursive: true,
      includeHidden: false,
      withFacts: true,
      signal: this.stop.signal,
      pause: this.pause,
      visit: (entry) => {
        if (entry.kind === 'directory' && !entry.inPersona) round?.folder(entry.dir, entry.name, entry.relPath);
        if (entry.kind !== 'file' || entry.inPersona || entry.facts === undefined) return 'continue';
        if (sandbox.denyList.deniesRead(entry.relPath)) return 'continue';
        seen.add(entry.relPath);
        if (verdict(entry.relPath, entry.facts.size, entry.facts.ctimeMs) === FileVerdict.Stale) {
          this.pending.set(entry.relPath, entry);
        }
        return 'continue';
      },
    });
    if (!walked.ok) {
      round?.end(false);
      return;
    }
    const gone = index.livePaths().filter((path) => !seen.has(path));
    if (gone.length > 0) {
      index.remove(gone);
      this.scheduleSave();
    }
    try {
      await this.indexPending();
    } catch (error) {
      round?.end(false);
      throw error;
    }
    this.endRound(round, sandbox);
  }

  /**
   * Freshness without a walk (issue 32 item 3): while the watcher is trusted, the paths it heard
   * about are looked at through the sandbox, indexed again (or dropped when gone), and then clean.
   * A changed folder (new, renamed, replaced, gone), an untrusted watcher or another deny-list: a
   * full refresh instead, whose walk re-establishes the watches. Public for tests; runs on the
   * queue after changes otherwise.
   */
  async catchUp(): Promise<void> {
    const { sandbox, index, watcher } = this;
    if (sandbox === undefined || index === undefined || watcher === undefined) return;
    const held = this.pause();
    if (held !== undefined) await held;
    const view = watcher.view();
    if (view === undefined || sandbox.denyList !== this.walkedDenyList) {
      this.refreshSoon();
      return;
    }
    const marks = watcher.dirtyMarks();
    const gone: string[] = [];
    for (const path of marks.keys()) {
      if (view.isFolder(path)) return this.refreshSoon();
      const hidden = path.startsWith('.') || path.includes('/.');
      if (hidden || isPersonaPath(path) || sandbox.denyList.deniesRead(path)) {
        gone.push(path); // never indexed; queries look at such paths themselves
        continue;
      }
      const resolved = await sandbox.resolve(path, 'read', { followFinal: false });
      if (!resolved.ok) {
        if (resolved.error.code !== 'file_not_found') return this.refreshSoon();
        gone.push(path);
        continue;
      }
      const found = resolved.value;
      if (found.facts?.kind === 'directory') return this.refreshSoon(); // a new folder: a walk watches it
      const dirId = sandbox.parentIdOf(found);
      // Not a file a walk would search (a symlink on the way, ignored, special), or gone meanwhile.
      if (found.facts?.kind !== 'file' || found.realRel !== path || sandbox.isIgnored(found) || dirId === undefined) {
        gone.push(path);
        continue;
      }
      const slash = found.realRel.lastIndexOf('/');
      this.pending.set(path, {
        relPath: path,
        inPersona: false,
        dirRealRel: slash === -1 ? '' : found.realRel.slice(0, slash),
        dirId,
        name: found.realRel.slice(slash + 1),
      });
    }
    if (gone.length > 0) {
      index.remove(gone);
      this.scheduleSave();
    }
    await this.indexPending();
    watcher.settle(marks);
  }

  /** A full walk begins: the watcher re-establishes its watches as the walk meets each folder. */
  private watchRound(sandbox: WorkspaceSandbox): WatchRound | undefined {
    const root = sandbox.anchorOf(false);
    return root === undefined ? undefined : this.watcher?.begin(root.dir);
  }

  /** The index now holds what the walk found: the watcher may vouch for it (or a refresh is due). */
  private endRound(round: WatchRound | undefined, sandbox: WorkspaceSandbox): void {
    if (round === undefined) return;
    round.end(true);
    this.walkedDenyList = sandbox.denyList;
    if (this.watcher?.view() === undefined) this.refreshSoon();
  }

  /**
   * A refresh walk soon: after changes, or when the watcher is not trusted after a full walk
   * (noteChanged needs a ready index).
   */
  private refreshSoon(): void {
    this.enqueueLater('refresh', REFRESH_DELAY_MS, () => this.refresh());
  }

  /** Runs `task` on the queue after `delayMs`, once however often it is asked for meanwhile. */
  private enqueueLater(key: 'save' | 'refresh' | 'catch-up', delayMs: number, task: () => Promise<void>): void {
    if (this.timers.has(key)) return;
    const timer = setTimeout(() => {
      this.timers.delete(key);
      void this.enqueue(task);
    }, delayMs);
    timer.unref?.();
    this.timers.set(key, timer);
  }

  private async indexPending(): Promise<void> {
    const sandbox = this.sandbox;
    const index = this.index;
    if (sandbox === undefined || index === undefined || this.pending.size === 0) return;
    const entries = [...this.pending.values()];
    this.pending.clear();
    for (let at = 0; at < entries.length; at += FILES_PER_JOB) {
      const held = this.pause();
      if (held !== undefined) await held;
      const slice = entries.slice(at, at + FILES_PER_JOB);
      const batch = new AnchoredBatch((inPersona) => sandbox.anchorOf(inPersona));
      for (const entry of slice) batch.add(entry);
      const files = batch.take();
      if (files === undefined) continue;
      index.add(
        slice.map((entry) => entry.relPath),
        await this.workers.indexFiles(files, this.racyMs, this.stop.signal),
      );
    }
    this.emit();
    this.scheduleSave();
  }

  private scheduleSave(): void {
    this.enqueueLater('save', SAVE_DELAY_MS, () => this.save());
  }

  private async save(): Promise<void> {
    const sandbox = this.sandbox;
    const index = this.index;
    if (sandbox === undefined || index === undefined) return;
    // The postings in memory for the copy (a moment, when they were on disk), then on disk again.
    await index.loadPostings();
    const identity = this.identity(sandbox);
    const parts = saveIndex(index, identity);
    await ensureFolder(join(this.storeFile, '..'));
    await writeFileAtomic(this.storeFile, parts);
    this.diskBytes = parts.reduce((sum, part) => sum + part.length, 0);
    await this.answerFromSaved(index, identity);
    this.emit();
  }

  /**
   * After a save the index answers from the file just written, as after a restart: its postings
   * (most of its bytes: 57 MB of 62 on a 62k-file tree) leave the heap and are read per query, the
   * lists a query needs (issue 32 item 7). Runs on the queue, so nothing changes the index meanwhile;
   * a query under way keeps the one it holds. Not opened (the file unreadable): kept as it is.
   */
  private async answerFromSaved(index: NgramIndex, identity: unknown): Promise<void> {
    const file = await openDataRanges(this.storeFile);
    const reopened = file === undefined ? undefined : await openSavedIndex(file);
    if (reopened?.ok !== true) return;
    if (this.index !== index || JSON.stringify(reopened.identity) !== JSON.stringify(identity)) {
      await reopened.index.close();
      return;
    }
    this.index = reopened.index;
  }
}
