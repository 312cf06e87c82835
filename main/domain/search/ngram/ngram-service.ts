import type { AnchoredFs } from '../../../platform/disk/anchored-fs';
import type { WatchView } from '../../../platform/watching/tree-watcher';
import type { FsWorkerPool } from '../../../platform/search-engines/fs-worker-pool';
import type { ForegroundGate } from '../../../platform/search-engines/foreground-gate';
import type { WorkspaceSandbox } from '../../../platform/disk/workspace-sandbox';
import { dataFileExists } from '../../../platform/storage/binary-file';
import { NgramIndex } from './ngram-index';
import { fillIndex } from './ngram-build';
import type { NgramState, NgramStatus } from './ngram-status';
import { NgramStatusReport } from './ngram-status-report';
import { indexIdentity, openStoredIndex, storeIndex } from './ngram-store';
import type { IndexIdentity } from './ngram-store';
import type { StaleEntry } from './ngram-stale-files';
import { NgramTaskQueue } from './ngram-task-queue';
import { NgramUpkeep } from './ngram-upkeep';
import { NgramWatch } from './ngram-watch';

/** Saving costs a copy of the index: at most this often after changes. */
const SAVE_DELAY_MS = 5000;
/**
 * Files changed less than this before they were read are "racy" (ngram-types.ts NGRAM_RACY): file
 * times tick coarsely, up to 2 s on FAT and 1 s on HFS+.
 */
const RACY_MS = 2500;

export type { NgramState, NgramStatus } from './ngram-status';
export type { StaleEntry } from './ngram-stale-files';

/**
 * The trigram index of one workspace: loaded from the data folder (validated: format, workspace
 * identity; every file's size and ctime at each query) or built in the background by the file
 * workers, then kept fresh by what queries find stale and by refreshes the watcher and the tools
 * ask for. Never in the way: until it is ready, search_in_code scans.
 */
export class WorkspaceNgram {
  private index: NgramIndex | undefined;
  private state: NgramState = 'idle';
  private building: NgramIndex | undefined;
  private readonly report = new NgramStatusReport();
  /** A failed task leaves the index it had (ready) or none (failed), and says why. */
  private readonly tasks = new NgramTaskQueue((error: unknown) => {
    this.state = this.index === undefined ? 'failed' : 'ready';
    this.report.error = (error as Error).message;
    this.emit();
  });
  /** The saved index being read (ready() started it): a query waits for it, not for a build. */
  private opening: Promise<void> | undefined;
  /** Starts that read at once, while it waits for the calls to end (see ready()). */
  private hurryOpening: AbortController | undefined;
  /** A query asked for the index (ready()): an index is built where no saved one can be used. */
  private searched = false;
  private sandbox: WorkspaceSandbox | undefined;
  private readonly stop = new AbortController();
  private readonly watch: NgramWatch;
  /** Reindexing, catch-ups and refreshes: what keeps the ready index fresh (ngram-upkeep.ts). */
  private readonly upkeep: NgramUpkeep;

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
    this.watch = new NgramWatch(anchored, () => this.noteChanged());
    const host = {
      current: () => ({ sandbox: this.sandbox, index: this.index }),
      build: (sandbox: WorkspaceSandbox) => this.build(sandbox),
      emit: () => this.emit(),
      scheduleSave: () => this.scheduleSave(),
    };
    const work = { workers, racyMs: this.racyMs, signal: this.stop.signal, pause: this.pause };
    this.upkeep = new NgramUpkeep(host, this.tasks, this.watch, work, background);
  }

  status(): NgramStatus {
    return this.report.status(this.state, this.state === 'ready' ? this.index : this.building);
  }

  /** Progress and state changes (for the UI); returns the unsubscribe. */
  onStatus(listener: (status: NgramStatus) => void): () => void {
    return this.report.listen(listener);
  }

  /**
   * The index when it can answer, else undefined (and a load or build starts in the background).
   * A saved index is read once the tool calls end: the query that asked does not wait for it
   * (ripgrep walks meanwhile) and should not share the cores with it (the first search after a
   * restart); one that waits for it (answering) starts it at once. With none saved the state turns
   * 'building' at once (the build itself waits for the calls).
   */
  ready(sandbox: WorkspaceSandbox): NgramIndex | undefined {
    // A query asked: where no saved index can be used, one is built.
    this.searched = true;
    this.startLoading(sandbox);
    return this.state === 'ready' ? this.index : undefined;
  }

  /**
   * The workspace was opened: a saved index is opened now, in the background, and its refresh
   * follows, so that a search after a restart finds it vouched for and answers from it (issue 32
   * item 2) instead of ripgrep walking while it loads. Nothing is built here, not even where the
   * saved file turns out unusable (another format, another folder, damaged): that waits for a
   * query, as in a workspace never searched. Closed, or the folder not open: nothing.
   */
  openSaved(sandbox: WorkspaceSandbox): void {
    if (this.state !== 'idle' || this.stop.signal.aborted || !dataFileExists(this.storeFile)) return;
    if (indexIdentity(sandbox) === undefined) return;
    this.startLoading(sandbox);
  }

  /** The saved index read, or else (a query asked for it) one built, in the background (see ready()). */
  private startLoading(sandbox: WorkspaceSandbox): void {
    this.sandbox = sandbox;
    if (this.state === 'idle' && !this.stop.signal.aborted) {
      this.state = 'loading';
      const saved = dataFileExists(this.storeFile);
      const hurry = (this.hurryOpening = new AbortController());
      const opening = this.tasks.enqueue(async () => {
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
   * ready, the watcher trusted, the deny-list the one the last full walk applied. First the events
   * already queued are heard (NgramWatch.hearQueued).
   */
  async watched(sandbox: WorkspaceSandbox): Promise<WatchView | undefined> {
    if (!this.watch.watching) return undefined;
    await this.watch.hearQueued();
    if (this.state !== 'ready') return undefined;
    return this.watch.vouching(sandbox.denyList);
  }

  /** Workspace paths of the files in the ready index (a snapshot: reindexing may go on meanwhile). */
  indexedPaths(): string[] {
    return this.index === undefined ? [] : this.index.livePaths();
  }

  /** Resolves once the index is ready or failed (tests, the bench). */
  async settled(): Promise<NgramStatus> {
    for (;;) {
      const pending = this.tasks.tail;
      await pending;
      if (pending === this.tasks.tail) return this.status();
    }
  }

  /** Files a query found changed or new (it searched them): indexed again in the background. */
  reindex(sandbox: WorkspaceSandbox, entries: readonly StaleEntry[]): void {
    // Closed (or closing): a query answered late indexes nothing into it, nor saves it over a newer one.
    if (entries.length === 0 || this.stop.signal.aborted) return;
    this.sandbox = sandbox;
    this.upkeep.reindex(entries);
  }

  /**
   * Something changed in the workspace (the watcher, a tool's write): a refresh walk soon compares
   * every file with the index. Queries are exact meanwhile (they check every file themselves).
   */
  noteChanged(paths: readonly string[] = []): void {
    this.watch.mark(paths);
    if (this.state !== 'ready') return;
    this.upkeep.changed(this.sandbox?.denyList);
  }

  /**
   * Freshness without a walk (issue 32 item 3): the paths a trusted watcher heard about are looked
   * at again (NgramUpkeep.catchUp). Public for tests; runs on the queue after changes otherwise.
   */
  catchUp(): Promise<void> {
    return this.upkeep.catchUp();
  }

  async close(): Promise<void> {
    this.stop.abort();
    this.watch.close();
    // A save asked for meanwhile is still taken: it is made below, once the running task is over.
    this.tasks.refuse(['refresh', 'catch-up']);
    await this.tasks.tail.catch(() => undefined);
    if (this.tasks.cancel('save')) await this.save().catch(() => undefined);
    await this.index?.close();
  }

  private emit(): void {
    this.report.tell(this.status());
  }

  /** Background work asks before each step: a promise while a tool call runs (foreground-gate.ts). */
  private readonly pause = (hurry?: AbortSignal): Promise<void> | undefined =>
    this.background.foreground?.idle(
      hurry === undefined ? this.stop.signal : AbortSignal.any([this.stop.signal, hurry]),
    );

  private async loadOrBuild(): Promise<void> {
    const sandbox = this.sandbox!;
    const identity = indexIdentity(sandbox);
    if (identity === undefined) throw new Error('the workspace folder is not open');
    this.emit();
    // The path and key tables now; the postings stay on disk until the background read below
    // (a query meanwhile reads the lists it needs). Another format, a truncated or damaged file:
    // built again (a cache, never misread).
    const stored = await openStoredIndex(this.storeFile, identity);
    if (stored !== undefined) {
      this.index = stored.index;
      this.report.diskBytes = stored.size;
      this.state = 'ready';
      this.emit();
      // The postings stay on disk for good: each query reads the lists it needs (the page cache
      // keeps them warm), so the index costs the heap its path and key tables only (issue 32 item 7).
      // Files changed while the app was closed are found by each query anyway; the refresh
      // indexes them again so queries stay selective (and lets the watcher vouch again).
      void this.tasks.enqueue(() => this.upkeep.refresh());
      return;
    }
    // Opened with the workspace (openSaved) and no query yet: nothing is built until one asks.
    if (!this.searched) {
      this.state = 'idle';
      this.emit();
      return;
    }
    // The build waits for its turn on the queue: the query that asked for it does not wait.
    this.state = 'building';
    this.emit();
    void this.tasks.enqueue(() => this.build(sandbox));
  }

  private async build(sandbox: WorkspaceSandbox): Promise<void> {
    const started = performance.now();
    const index = new NgramIndex();
    this.building = index;
    this.report.walked = 0;
    if (this.state !== 'ready') this.state = 'building';
    this.emit();
    const held = this.pause();
    if (held !== undefined) await held;
    const round = this.watch.beginRound(sandbox);
    try {
      await fillIndex(index, sandbox, this.workers, {
        pause: this.pause,
        racyMs: this.racyMs,
        signal: this.stop.signal,
        round,
        onWalked: () => (this.report.walked += 1),
        onSegment: () => this.emit(),
      });
    } catch (error) {
      round?.end(false);
      throw error;
    }
    this.upkeep.endRound(round, sandbox);
    const replaced = this.index;
    this.index = index;
    this.building = undefined;
    await replaced?.close();
    this.report.buildMs = performance.now() - started;
    this.state = 'ready';
    this.report.error = undefined;
    this.emit();
    await this.save();
  }

  private scheduleSave(): void {
    this.tasks.enqueueLater('save', SAVE_DELAY_MS, () => this.save());
  }

  private async save(): Promise<void> {
    const sandbox = this.sandbox;
    const index = this.index;
    if (sandbox === undefined || index === undefined) return;
    // The postings in memory for the copy (a moment, when they were on disk), then on disk again.
    await index.loadPostings();
    const identity = indexIdentity(sandbox);
    this.report.diskBytes = await storeIndex(this.storeFile, index, identity);
    await this.answerFromSaved(index, identity);
    this.emit();
  }

  /**
   * After a save the index answers from the file just written, as after a restart: its postings
   * (most of its bytes: 57 MB of 62 on a 62k-file tree) leave the heap and are read per query, the
   * lists a query needs (issue 32 item 7). Runs on the queue, so nothing changes the index meanwhile;
   * a query under way keeps the one it holds. Not opened (the file unreadable): kept as it is.
   */
  private async answerFromSaved(index: NgramIndex, identity: IndexIdentity): Promise<void> {
    // Not this workspace's (another identity): undefined, already closed again.
    const reopened = await openStoredIndex(this.storeFile, identity);
    if (reopened === undefined) return;
    if (this.index !== index) {
      await reopened.index.close();
      return;
    }
    this.index = reopened.index;
  }
}
