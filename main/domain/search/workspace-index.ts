import { messageOf } from '../../../shared/errors';
import { dirname } from 'node:path';
import { setTimeout as sleep, setImmediate as yieldToLoop } from 'node:timers/promises';
import type { EntryFacts, WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import type { Embedder } from '../providers/embedding-model';
import { linesIfUnchanged, readIndexable, sameIdentity } from './indexed-file';
import { Bm25Index } from './bm25/bm25-index';
import type { ChunkOptions } from './chunk';
import { fuseRankings } from './hybrid-rank';
import type { IndexStatus } from './index-status';
import { PassageVectors } from './passage-vectors';
import { SavedIndex } from './saved-index';
import type { IndexOptions, IndexStats, SemanticAnswer, SemanticHit } from './semantic-answer';
import { unitVector } from './vector-cache';
import type { VectorCache } from './vector-cache';
import { SemanticChangeWatch } from './semantic-change-watch';
import type { ScanWatch } from './semantic-change-watch';
import { withSnippets } from './snippets';
import type { ChunkHit } from './text-index';
import { forgetCachedTerms } from './tokenize';
import { parentRel } from '../../platform/disk/path-syntax';

/** Files larger than this are not indexed: logs and dumps, not prose a person searches by meaning. */
export const MAX_INDEXED_FILE_BYTES = 1024 * 1024;
const SNIPPET_CHARS = 500;
const CHUNKING: ChunkOptions = { targetTokens: 300, overlapTokens: 60, splitAtHeadings: true };
/** Each ranking hands this many candidates to the fusion. */
const FUSION_CANDIDATES = 50;
/** Status events while building: at most this often (the last one always goes out). */
const STATUS_EVERY_MS = 250;
const READ_BATCH = 32;
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
 */
export class WorkspaceIndex {
  private readonly index = new Bm25Index(CHUNKING);
  private readonly sandbox: WorkspaceSandbox;
  /** Folders the full scan walked (not ignored): a new file in one of them is indexed without a rescan. */
  private readonly knownDirs = new Set<string>(['']);
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
  private filesFound = 0;
  private filesChecked = 0;
  private filesRead = 0;
  private lastStatusAt = 0;
  /** Queries answering now: the build pauses between batches while there are any. */
  private foreground = 0;
  /** Queries waiting for the build to end (a small workspace's first): it does not pause for their calls. */
  private awaitingBuild = 0;
  private readonly vectors: PassageVectors;
  /** The file being counted into the index (setDocumentSliced): the next waits for it. */
  private counting: Promise<unknown> = Promise.resolve();
  /** A full scan runs (a query does not wait for it once something is indexed). */
  private scanningInFull = false;
  /** A full scan is still walking the workspace (nothing of this scan indexed yet). */
  private walkingInFull = false;
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
        this.filesRead += 1;
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
    const buildUnderWay = this.scanningInFull && this.index.documentCount > 0;
    let complete = false;
    if (!fromSaved) {
      this.awaitingBuild += 1;
      try {
        const refreshing = this.refresh();
        const patience = buildUnderWay ? 0 : Math.min(waitMs, WALK_PATIENCE_MS);
        complete = await within(refreshing, patience);
        if (!complete && !buildUnderWay && !this.walkingInFull) complete = await within(refreshing, waitMs - patience);
      } finally {
        this.awaitingBuild -= 1;
      }
    }
    // From here the query is in the foreground (issue 32, item 1): the build waits between two
    // batches until it has answered, so the query's own reads and requests do not queue behind it.
    this.foreground += 1;
    try {
      return await this.answer(query, limit, visible, complete, fromSaved ? undefined : deadline);
    } finally {
      this.foreground -= 1;
      if (fromSaved) void this.refresh().catch(() => undefined);
    }
  }

  private loadSaved(): Promise<void> {
    this.loading ??= this.saved.load().catch(() => undefined);
    return this.loading;
  }

  private async answer(
    query: string,
    limit: number,
    visible: (path: string) => boolean,
    complete: boolean,
    /** Undefined: answer from the saved index, no embedding pass yet (a restart's first query). */
    deadline: number | undefined,
  ): Promise<SemanticAnswer> {
    const lexical = this.index.search(query, { limit: Math.max(limit, FUSION_CANDIDATES), filter: visible });
    const answerState = () => ({
      complete,
      state: !complete || this.vectors.embedding ? ('building' as const) : ('ready' as const),
      status: this.status(),
    });
    const bm25 = async (notice?: string): Promise<SemanticAnswer> => ({
      hits: await this.snippets(lexical.slice(0, limit)),
      ranking: 'bm25',
      ...answerState(),
      ...(notice === undefined ? {} : { notice }),
    });
    const source = this.options.embedder?.();
    if (source === undefined) return bm25();
    if (!source.ok)
      return bm25(`Ranked by words alone (BM25): the embedding model cannot be used (${source.error.message}).`);
    const embedder = source.value;
    // New passages get their vectors in the background; the query waits for them until its deadline.
    if (deadline === undefined) await this.vectors.opened(embedder);
    else await within(this.embedPending(embedder, visible), Math.max(0, deadline - Date.now()));
    let queryVector: Float32Array;
    try {
      const [vector] = await embedder.embed([query]);
      if (vector === undefined) throw new Error('no vector for the query');
      queryVector = unitVector(vector);
    } catch (error) {
      return bm25(`Ranked by words alone (BM25): embedding the query failed (${messageOf(error)}).`);
    }
    const cache = this.vectors.cache as VectorCache;
    const semantic = this.index.vectorSearch((hash) => cache.score(hash, queryVector), {
      limit: FUSION_CANDIDATES,
      filter: visible,
    });
    const hits = await this.snippets(fuseRankings([lexical, semantic], limit));
    const answer = answerState();
    const vectors = answer.status.vectors;
    const partial =
      vectors !== undefined && vectors.embedded < vectors.chunks
        ? `Vectors cover ${vectors.embedded} of ${vectors.chunks} passages so far (still embedding).`
        : undefined;
    return { hits, ranking: 'hybrid', ...answer, ...(partial === undefined ? {} : { notice: partial }) };
  }

  /** Where the index stands (the UI shows it while it builds; the tool's result carries it). */
  status(): IndexStatus {
    return {
      root: this.root,
      state: this.state,
      files: this.index.documentCount,
      filesFound: this.filesFound,
      filesChecked: this.filesChecked,
      filesRead: this.filesRead,
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
    let dir = parentRel(path);
    let highestNew: string | undefined;
    while (dir !== '' && !this.knownDirs.has(dir)) {
      highestNew = dir;
      dir = parentRel(dir);
    }
    if (highestNew !== undefined) this.dirty.add(highestNew);
  }

  private async snippets(hits: readonly ChunkHit[]): Promise<SemanticHit[]> {
    return withSnippets(
      hits,
      async (path) => {
        const version = this.index.versionOf(path);
        const now =
          version === undefined
            ? undefined
            : await linesIfUnchanged(this.sandbox, path, version, MAX_INDEXED_FILE_BYTES);
        // Not the file indexed any more: no snippet from it, and the next query re-reads it.
        if (now === undefined) this.dirty.add(path);
        return now;
      },
      SNIPPET_CHARS,
    );
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
      const reindexed = await this.fullScan();
      return { files: this.fileCount, reindexed, fullScan: true };
    }
    for (const path of changes?.paths ?? []) this.dirty.add(path);
    let reindexed = 0;
    for (const path of [...this.dirty]) {
      this.dirty.delete(path);
      reindexed += await this.update(path);
    }
    changes?.settle();
    return { files: this.fileCount, reindexed, fullScan: false };
  }

  private async fullScan(): Promise<number> {
    const round = this.watch?.begin();
    let ok = false;
    this.scanningInFull = true;
    try {
      const seen = new Set<string>();
      const reindexed = await this.scan('', round, seen);
      // A scan stopped by close did not see every file: none is dropped for being unseen.
      if (this.stop.signal.aborted) return reindexed;
      for (const path of [...this.index.paths()]) if (!seen.has(path)) this.index.removeDocument(path);
      this.scheduleSave();
      if (reindexed > 0) forgetCachedTerms();
      ok = true;
      return reindexed;
    } finally {
      this.scanningInFull = false;
      round?.end(ok);
    }
  }

  /**
   * Walks the workspace, or one folder of it (from its parent, entering only it, so that the watch
   * sees the folder as the full scan would), with gitignore, persona overlay and deny-list applied,
   * and indexes what changed. `watch`: each folder is watched before it is read.
   */
  private async scan(dir: string, watch: ScanWatch | undefined, seen = new Set<string>()): Promise<number> {
    const parent = parentRel(dir);
    const start = await this.sandbox.resolve(parent === '' ? '.' : parent, 'read');
    if (!start.ok || start.value.facts?.kind !== 'directory') return 0;
    if (dir === '') this.knownDirs.clear();
    this.knownDirs.add('');
    // From the parent, the walk keeps `dir` alone; below it, everything.
    const only = new Set([dir.slice(parent === '' ? 0 : parent.length + 1)]);
    const files: { relPath: string; facts: EntryFacts | undefined }[] = [];
    this.walkingInFull = dir === '';
    try {
      await this.sandbox.walk(start.value, {
        recursive: true,
        includeHidden: false,
        withFacts: true,
        signal: this.stop.signal,
        ...(dir === '' ? {} : { only: (folder: string) => (folder === parent ? only : undefined) }),
        visit: (entry) => {
          if (entry.kind === 'directory') {
            this.knownDirs.add(entry.relPath);
            watch?.folder(entry);
          } else if (entry.kind === 'file' && !this.sandbox.denyList.deniesRead(entry.relPath))
            files.push({ relPath: entry.relPath, facts: entry.facts });
          return 'continue';
        },
      });
    } finally {
      this.walkingInFull = false;
    }
    let reindexed = 0;
    this.filesFound = files.length;
    this.filesChecked = 0;
    this.emitStatus(true);
    // Read a few dozen files at a time: a restart checks 10,000 files, mostly unchanged (the walk's
    // lstat through the folder descriptor says so without reading them).
    for (let at = 0; at < files.length && !this.stop.signal.aborted; at += READ_BATCH) {
      const batch = files.slice(at, at + READ_BATCH);
      for (const file of batch) seen.add(file.relPath);
      const changed = await Promise.all(batch.map((file) => this.indexFile(file.relPath, file.facts)));
      reindexed += changed.filter(Boolean).length;
      // The live segment goes to disk once it is big (the build's memory stays bounded).
      if (this.index.wantsFlush && !this.closed) await this.saved.save().catch(() => undefined);
      // Saved as it builds (at most every few seconds): a restart resumes from what was indexed.
      if (changed.some(Boolean)) this.scheduleSave();
      this.filesChecked += batch.length;
      this.emitStatus();
      await yieldToLoop();
      if (at + READ_BATCH < files.length) await this.pauseForCalls();
    }
    if (reindexed > 0) this.scheduleSave();
    return reindexed;
  }

  /**
   * Between two slices of a file's counting (a big file's takes hundreds of ms): as between two
   * batches, when a query answers or a call runs; nothing to wait for otherwise (no await per slice).
   */
  private slicePause(): Promise<void> | undefined {
    const callsRun = this.awaitingBuild === 0 && this.options.foreground?.busy === true;
    return this.foreground > 0 || callsRun ? this.pauseForCalls() : undefined;
  }

  /**
   * Between two batches of a scan: waits while this index's queries answer, and while other tool
   * calls run (the foreground gate) unless a query waits for this very build to end.
   */
  private async pauseForCalls(): Promise<void> {
    const aborted = () => this.stop.signal.aborted;
    while (this.foreground > 0 && !aborted()) await sleep(5);
    // A query waiting for this build: no pause (and no waiter left at the gate for it).
    if (this.awaitingBuild > 0) return;
    for (let held = this.options.foreground?.idle(this.stop.signal); held !== undefined;) {
      const opened = held.then(() => true);
      // Looked at again every 20 ms: a query may come to wait for the build meanwhile.
      let open = false;
      while (!open && this.awaitingBuild === 0 && !aborted()) {
        open = await Promise.race([opened, sleep(20).then(() => false)]);
      }
      if (!open) return;
      held = this.options.foreground?.idle(this.stop.signal); // shut again at once by the next call?
    }
  }

  /**
   * A path that changed (an event, a tool's write, a stale snippet): looked at through the sandbox.
   * A folder (new, or swapped) is walked; a folder that is gone or became something else takes
   * what was indexed under it along; a file is indexed again when a scan would index it, else dropped.
   * Answers how many files were indexed again.
   */
  private async update(relPath: string): Promise<number> {
    const found = await this.sandbox.resolve(relPath, 'read', { followFinal: false });
    const now = found.ok && found.value.realRel === relPath ? found.value : undefined;
    const wasFolder = this.knownDirs.has(relPath);
    if (wasFolder) this.watch?.forget(relPath);
    const visible = now !== undefined && this.knownDirs.has(parentRel(relPath)) && !this.sandbox.isIgnored(now);
    if (visible && now.facts?.kind === 'directory') {
      const seen = new Set<string>();
      const reindexed = await this.scan(relPath, this.watch?.grow(), seen);
      if (wasFolder) this.dropUnder(relPath, seen, false);
      this.scheduleSave();
      return reindexed;
    }
    if (wasFolder) this.dropUnder(relPath, new Set(), true);
    const indexable = visible && now.facts?.kind === 'file' && !this.sandbox.denyList.deniesRead(relPath);
    if (!indexable) this.index.removeDocument(relPath);
    const changed = indexable && (await this.indexFile(relPath, now.facts));
    this.scheduleSave();
    return changed ? 1 : 0;
  }

  /**
   * What was indexed under a folder and not seen there now leaves the index; a folder that is `gone`
   * (or no folder any more) leaves the known ones too, with those under it.
   */
  private dropUnder(folder: string, seen: ReadonlySet<string>, gone: boolean): void {
    const under = `${folder}/`;
    for (const path of [...this.index.paths()]) {
      if (path.startsWith(under) && !seen.has(path)) this.index.removeDocument(path);
    }
    if (gone) {
      this.knownDirs.delete(folder);
      for (const dir of [...this.knownDirs]) if (dir.startsWith(under)) this.knownDirs.delete(dir);
    }
  }

  /**
   * (Re)indexes one file unless its identity is the one indexed; text files only, up to
   * MAX_INDEXED_FILE_BYTES. A file that is no longer readable that way leaves the index.
   */
  private async indexFile(relPath: string, facts: EntryFacts | undefined): Promise<boolean> {
    if (facts !== undefined && sameIdentity(this.index.versionOf(relPath), facts)) return false;
    if (facts !== undefined && (facts.kind !== 'file' || facts.size > MAX_INDEXED_FILE_BYTES)) {
      this.index.removeDocument(relPath);
      return false;
    }
    const read = await readIndexable(this.sandbox, relPath, MAX_INDEXED_FILE_BYTES);
    this.filesRead += 1;
    if (read === undefined) {
      this.index.removeDocument(relPath);
      return false;
    }
    if (this.index.versionOf(relPath) === read.version) return false;
    // One file counted at a time (the batch's reads go on meanwhile): counted side by side, a
    // batch's half-counted chunks would all be held at once.
    const counted = this.counting.then(() =>
      this.index.setDocumentSliced(relPath, read.text, read.version, () => this.slicePause()),
    );
    this.counting = counted.catch(() => undefined);
    await counted;
    if (this.embedding) this.vectors.remember(relPath, read);
    return true;
  }

  private scheduleSave(): void {
    if (!this.closed) this.saved.schedule();
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

/** Whether `work` settles within `ms` (it goes on either way). */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]).finally(() => clearTimeout(timer));
}
