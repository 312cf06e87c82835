import { dirname } from 'node:path';
import type { WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import type { Embedder } from '../providers/embedding-model';
import { readIndexable } from './indexed-file';
import { Bm25Index } from './bm25/bm25-index';
import { BuildPacing } from './build-pacing';
import type { ChunkOptions } from './chunk';
import type { IndexStatus } from './index-status';
import { PassageVectors } from './passage-vectors';
import { SavedIndex } from './saved-index';
import type { IndexOptions, IndexStats, SemanticAnswer } from './semantic-answer';
import { SemanticChangeWatch } from './semantic-change-watch';
import { SemanticRanking } from './semantic-ranking';
import { settlesWithin } from './settles-within';
import { MAX_INDEXED_FILE_BYTES, WorkspaceScanner } from './workspace-scanner';

export { MAX_INDEXED_FILE_BYTES } from './workspace-scanner';
const CHUNKING: ChunkOptions = { targetTokens: 300, overlapTokens: 60, splitAtHeadings: true };
/** Status events while building: at most this often (the last one always goes out). */
const STATUS_EVERY_MS = 250;
/**
 * A query waits at most this for the build (issue 32: an answer within 1 s), then answers from what
 * is indexed and embedded by then, saying the index is still building and how much it covers. The
 * rest of the second is the answer's own: ranking, snippets, the query's embedding (over MCP on an
 * 85.8k-file tree the first query took 870-1,028 ms with 800 here).
 */
export const ANSWER_WITHIN_MS = 600;
/**
 * A first build still walking the workspace after this long is a big one's: nothing of it would be
 * indexed by the deadline, so the query answers now (partial) rather than at the deadline (over
 * MCP on an 80k-file tree the first query took 660-840 ms, all of it waiting on the walk).
 */
const WALK_PATIENCE_MS = 250;

/**
 * The workspace's semantic-search index: BM25 over heading/paragraph chunks (TextIndex: Russian and
 * English stemming, CJK segmentation), incremental by file identity (dev, ino, size, mtime) with a
 * content hash, persisted in the Familiar home and kept fresh by a tree watcher the scans set up (names
 * only: what it reports is read again through the sandbox). It holds workspace-relative names, reads
 * every byte through the sandbox, and re-reads each hit's lines at query time, dropping the hit when
 * the file is no longer the one indexed (changed, replaced, or turned into a symlink).
 *
 * Its parts: the walks (workspace-scanner.ts), when the build steps aside for queries and calls
 * (build-pacing.ts), the ranking of an answer (semantic-ranking.ts), the vectors (passage-vectors.ts).
 */
export class WorkspaceIndex {
  private readonly index = new Bm25Index(CHUNKING);
  private readonly sandbox: WorkspaceSandbox;
  /** Paths to look at again (files or folders): the tools' own writes, snippets found stale, the watch's events. */
  private readonly dirty = new Set<string>();
  /** Undefined when changes are not watched (then only the tools' own writes are seen). */
  private readonly watch: SemanticChangeWatch | undefined;
  private needsFullScan = true;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly saved: SavedIndex;
  private loading: Promise<void> | undefined;
  /** A query has been answered: only the first after a restart answers before the check. */
  private answeredOnce = false;
  private closed = false;
  /** Aborted by close: a scan under way stops at its next batch (what it indexed so far stays). */
  private readonly stop = new AbortController();
  private state: IndexStatus['state'] = 'idle';
  private lastStatusAt = 0;
  /** Queries answering or waiting for the build: the build pauses for them (or not) between batches. */
  private readonly pacing: BuildPacing;
  private readonly scanner: WorkspaceScanner;
  private readonly ranking: SemanticRanking;
  private readonly vectors: PassageVectors;
  /** An embedding model is set (as of this refresh): the texts read are kept for its pass. */
  private embedding = false;

  constructor(sandbox: WorkspaceSandbox, storeFile: string, watchOrOptions: boolean | IndexOptions = true) {
    this.options = typeof watchOrOptions === 'boolean' ? { watchChanges: watchOrOptions } : watchOrOptions;
    // Indexing ignores the memory switch (results are filtered per query), so turning memory back on
    // needs no rescan; deny-listed files (secrets) are never read at all.
    this.sandbox = sandbox.unconcealed();
    this.saved = new SavedIndex(storeFile, this.sandbox.workspaceRoot, this.index);
    this.vectors = new PassageVectors({
      index: this.index,
      chunking: CHUNKING,
      dir: this.options.vectorsDir ?? dirname(storeFile),
      queued: () => this.queue,
      read: async (path) => {
        this.scanner.countRead();
        return readIndexable(this.sandbox, path, MAX_INDEXED_FILE_BYTES);
      },
      onStale: (path) => this.dirty.add(path),
      onState: (state) => {
        this.setWorking('embedding', state === 'embedding');
        this.setState(state);
      },
      onProgress: () => this.emitStatus(),
    });
    const anchored = this.options.anchored;
    this.watch =
      (this.options.watchChanges ?? true) && anchored !== undefined
        ? new SemanticChangeWatch(anchored, this.sandbox)
        : undefined;
    this.pacing = new BuildPacing(this.stop.signal, this.options.foreground);
    this.scanner = new WorkspaceScanner({
      index: this.index,
      sandbox: this.sandbox,
      watch: this.watch,
      saved: this.saved,
      pacing: this.pacing,
      stop: this.stop.signal,
      closed: () => this.closed,
      onIndexed: (path, read) => {
        if (this.embedding) this.vectors.remember(path, read);
      },
      onProgress: (force) => this.emitStatus(force),
    });
    this.ranking = new SemanticRanking({
      index: this.index,
      sandbox: this.sandbox,
      vectors: this.vectors,
      embedder: () => this.options.embedder?.(),
      embedPending: (embedder, include) => this.embedPending(embedder, include),
      status: () => this.status(),
      onStale: (path) => this.dirty.add(path),
    });
  }

  private readonly options: IndexOptions;

  get root(): string {
    return this.sandbox.workspaceRoot;
  }

  get fileCount(): number {
    return this.index.documentCount;
  }

  /**
   * Brings the index up to date (a full scan the first time, then only what changed) and searches.
   * A build (the first one, the check after a restart, new vectors) never holds a query past
   * `waitMs`: it answers from what is indexed and embedded so far (state 'building', with how much
   * that covers) while the build goes on in the background.
   */
  async search(
    query: string,
    limit: number,
    visible: (path: string) => boolean,
    waitMs = ANSWER_WITHIN_MS,
  ): Promise<SemanticAnswer> {
    const deadline = Date.now() + waitMs;
    // After a restart the saved index answers at once (issue 32 item 2: opening it reads segment heads
    // only); the check of what changed while the app was closed starts once it has answered, so the
    // walk does not hold up the answer's own reads. A hit whose file changed meanwhile is dropped by
    // the snippet check (its identity), and the answer says the index is still building.
    await this.loadSaved();
    const fromSaved = !this.answeredOnce && this.needsFullScan && this.index.documentCount > 0;
    this.answeredOnce = true;
    // A full scan under way with something indexed already (a build, or the check after a restart):
    // waiting for it would only spend the query's time, so the answer comes from what is indexed.
    const buildUnderWay = this.scanner.scanningInFull && this.index.documentCount > 0;
    let complete = false;
    if (!fromSaved) {
      this.pacing.startAwaitingBuild();
      try {
        const refreshing = this.refresh();
        const patience = buildUnderWay ? 0 : Math.min(waitMs, WALK_PATIENCE_MS);
        complete = await settlesWithin(refreshing, patience);
        if (!complete && !buildUnderWay && !this.scanner.walkingInFull)
          complete = await settlesWithin(refreshing, waitMs - patience);
      } finally {
        this.pacing.endAwaitingBuild();
      }
    }
    // From here the query is in the foreground (issue 32, item 1): the build waits between two
    // batches until it has answered, so the query's own reads and requests do not queue behind it.
    this.pacing.startAnswering();
    try {
      return await this.ranking.answer(query, limit, visible, complete, fromSaved ? undefined : deadline);
    } finally {
      this.pacing.endAnswering();
      if (fromSaved) void this.refresh().catch(() => undefined);
    }
  }

  private loadSaved(): Promise<void> {
    this.loading ??= this.saved.load().catch(() => undefined);
    return this.loading;
  }

  /** Where the index stands (the UI shows it while it builds; the tool's result carries it). */
  status(): IndexStatus {
    return {
      root: this.root,
      state: this.state,
      files: this.index.documentCount,
      ...this.scanner.counts(),
      ...this.vectors.status(),
    };
  }

  /** What runs now (onWorking): a scan, an embedding pass. */
  private readonly running = new Set<'scan' | 'embedding'>();

  private setWorking(part: 'scan' | 'embedding', on: boolean): void {
    const was = this.running.size > 0;
    if (on) this.running.add(part);
    else this.running.delete(part);
    if (this.running.size > 0 !== was) this.options.onWorking?.(this.root, !was);
  }

  private setState(state: IndexStatus['state']): void {
    this.state = state;
    this.emitStatus(true);
  }

  private emitStatus(force = false): void {
    const now = Date.now();
    if (!force && now - this.lastStatusAt < STATUS_EVERY_MS) return;
    this.lastStatusAt = now;
    this.options.onStatus?.(this.status());
  }

  /** Vectors for the passages that have none (passage-vectors.ts); the query waits for them a while. */
  embedPending(embedder: Embedder, include: (path: string) => boolean): Promise<void> {
    return this.vectors.pending(embedder, include);
  }

  /**
   * A tool of Familiar's changed this path (written, edited, moved, deleted): the next query re-reads
   * it without waiting for the watcher (which may be off, or slow, or dropped in a storm).
   */
  noteChanged(relPath: string): void {
    const path = relPath.replace(/^\.\/?/, '').replace(/\/+$/, '');
    if (path === '') {
      this.needsFullScan = true; // the whole workspace (a rename across files): a stat walk finds what changed
      return;
    }
    this.dirty.add(path);
    // A file in folders the scan has not walked yet: the highest new folder is walked.
    const highestNew = this.scanner.highestNewFolder(path);
    if (highestNew !== undefined) this.dirty.add(highestNew);
  }

  /** One refresh at a time; concurrent queries wait for the same one. */
  refresh(): Promise<IndexStats> {
    const next = this.queue.then(() => this.refreshNow());
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async refreshNow(): Promise<IndexStats> {
    // Texts are kept for the embedding pass only when a model is set: without one no pass ever
    // comes to use (and drop) them. Asked once per refresh (it reads the settings and the key).
    this.embedding = this.options.embedder?.()?.ok === true;
    this.setWorking('scan', true);
    this.setState('scanning');
    try {
      return await this.refreshIndex();
    } finally {
      this.setWorking('scan', false);
      this.setState('ready');
    }
  }

  private async refreshIndex(): Promise<IndexStats> {
    await this.loadSaved();
    // A watch that cannot vouch (before the first full scan set it up, or after it lost track):
    // only a full scan can be trusted, and it sets the watch up again as it walks.
    const watch = this.watch;
    const changes = this.needsFullScan ? undefined : watch?.changes();
    if (this.needsFullScan || (watch !== undefined && changes === undefined)) {
      this.needsFullScan = false;
      this.dirty.clear();
      const reindexed = await this.scanner.fullScan();
      return { files: this.fileCount, reindexed, fullScan: true };
    }
    for (const path of changes?.paths ?? []) this.dirty.add(path);
    let reindexed = 0;
    for (const path of [...this.dirty]) {
      this.dirty.delete(path);
      reindexed += await this.scanner.update(path);
    }
    changes?.settle();
    return { files: this.fileCount, reindexed, fullScan: false };
  }

  /** Writes the index now (the bench measures its size; close() calls it). */
  save(): Promise<number> {
    return this.saved.save();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stop.abort();
    this.watch?.close();
    if (this.saved.unsaved) await this.queue.then(() => this.save()).catch(() => undefined);
    await this.vectors.close();
    await this.saved.close();
  }
}
