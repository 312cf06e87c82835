import { createHash } from 'node:crypto';
import { dirname, join, relative, sep } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { watch } from 'chokidar';
import type { FSWatcher } from 'chokidar';
import { personaEntryOf } from '../../platform/sandbox/workspace-sandbox';
import type { EntryFacts, WorkspaceSandbox } from '../../platform/sandbox/workspace-sandbox';
import { z } from 'zod';
import { writeFileAtomic } from '../../platform/storage/atomic-file';
import { ensureFolder } from '../../platform/storage/folders';
import { readJsonFile } from '../../platform/storage/json-file';
import type { Result } from '../../../shared/result';
import type { Embedder } from '../providers/embedding-model';
import { linesIfUnchanged, readIndexable, sameIdentity } from './indexed-file';
import { Bm25Index } from './bm25-index';
import type { ChunkOptions } from './chunk';
import { embedMissing, vectorCoverage } from './embedding-pass';
import { fuseRankings } from './hybrid-rank';
import type { IndexStatus, IndexStatusListener } from './index-status';
import { unitVector, VectorCache } from './vector-cache';
import { withSnippets } from './snippets';
import type { SearchHit } from './snippets';
import type { ChunkHit } from './text-index';

/** Files larger than this are not indexed: logs and dumps, not prose a person searches by meaning. */
export const MAX_INDEXED_FILE_BYTES = 1024 * 1024;
const SNIPPET_CHARS = 500;
/** Saving a big index costs tens of milliseconds: at most this often. */
const SAVE_DELAY_MS = 2000;
// 3: versions are identity + content hash (dev:ino:size:mtime:sha1); 4: chunks carry their text's
// hash (the key of their embedding vector). Older files are rebuilt.
const FORMAT = 4;
const CHUNKING: ChunkOptions = { targetTokens: 300, overlapTokens: 60, splitAtHeadings: true };
/** Each ranking hands this many candidates to the fusion. */
const FUSION_CANDIDATES = 50;
/** Texts kept between indexing and embedding (a cold build of a big workspace re-reads the rest). */
const FRESH_TEXT_CHARS = 16 * 1024 * 1024;
/** Status events while building: at most this often (the last one always goes out). */
const STATUS_EVERY_MS = 250;
const READ_BATCH = 32;
/** How long the first query waits for the file watcher before indexing without it. */
const WATCH_READY_WAIT_MS = 2000;
/**
 * More watcher events than this in one second is a storm (a checkout, a build, a process swapping
 * folders in a loop): chokidar would spend the app's time and memory on it. The index then drops its
 * watchers for STORM_PAUSE_MS (doubling while it goes on) and every query rescans (by identity:
 * unchanged files are not read).
 */
const STORM_EVENTS_PER_SECOND = 1000;
const STORM_PAUSE_MS = 5000;
const MAX_UNWATCHED_MS = 5 * 60 * 1000;
/** The saved file's envelope; the index itself checks its own shape as it loads (a cache: rebuilt if bad). */
const savedIndexSchema = z.object({ format: z.unknown(), root: z.unknown(), index: z.unknown() });

export type SemanticHit = SearchHit;

/**
 * The embedding model to use, read on every query (settings change while the app runs): undefined
 * when none is configured, an error when one is configured but cannot be used.
 */
export type EmbedderSource = () => Result<Embedder> | undefined;

export interface IndexOptions {
  readonly watchChanges?: boolean;
  readonly embedder?: EmbedderSource;
  readonly onStatus?: IndexStatusListener;
  /** Where the vector caches live (default: beside the index file). */
  readonly vectorsDir?: string;
}

export interface SemanticAnswer {
  readonly hits: SemanticHit[];
  /** False while the first build is still running: the hits cover only part of the workspace. */
  readonly complete: boolean;
  /** 'hybrid': BM25 and embedding vectors fused; 'bm25': words only (no model, or it failed). */
  readonly ranking: 'bm25' | 'hybrid';
  readonly status: IndexStatus;
  /** Why the ranking is BM25 alone although a model is configured, or how far the vectors are. */
  readonly notice?: string;
}

export interface IndexStats {
  readonly files: number;
  /** Files read and (re)indexed by the last refresh. */
  readonly reindexed: number;
  readonly fullScan: boolean;
}

const builtInSkips = new Set(['.git', 'node_modules']);

/**
 * The workspace's semantic-search index: BM25 over heading/paragraph chunks (TextIndex: Russian and
 * English stemming, CJK segmentation), incremental by file identity (dev, ino, size, mtime) with a
 * content hash, persisted in the Familiar home and kept fresh by a recursive chokidar watcher (names
 * only: what it reports is read again through the sandbox). It holds workspace-relative names, reads
 * every byte through the sandbox, and re-reads each hit's lines at query time, dropping the hit when
 * the file is no longer the one indexed (changed, replaced, or turned into a symlink).
 */
export class WorkspaceIndex {
  private readonly index = new Bm25Index(CHUNKING);
  private readonly sandbox: WorkspaceSandbox;
  /** Folders the full scan walked (not ignored): a new file in one of them is indexed without a rescan. */
  private readonly knownDirs = new Set<string>(['']);
  private readonly dirty = new Set<string>();
  private readonly newDirs = new Set<string>();
  private needsFullScan = true;
  private watchers: FSWatcher[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private saveTimer: NodeJS.Timeout | undefined;
  private loaded = false;
  private closed = false;
  private eventWindowStart = 0;
  private eventsInWindow = 0;
  private unwatchedUntil = 0;
  /** The watchers are up and crawled: their events can be trusted to report every change. */
  private watchReady = false;
  private watchFailures = 0;
  private readonly watchChanges: boolean;
  private state: IndexStatus['state'] = 'idle';
  private filesFound = 0;
  private filesChecked = 0;
  private filesRead = 0;
  private lastStatusAt = 0;
  private vectors: VectorCache | undefined;
  private vectorProgress: { embedded: number; chunks: number } | undefined;
  private embeddingError: string | undefined;
  private embedding: Promise<void> | undefined;
  /** The index's change count and visibility rule when a pass last left no passage without a vector. */
  private embeddedAt: { changes: number; excluded: readonly string[] } | undefined;
  /** Texts just indexed, kept for the embedding pass so it need not read them again (bounded). */
  private readonly freshTexts = new Map<string, { text: string; version: string }>();
  private freshChars = 0;

  constructor(
    sandbox: WorkspaceSandbox,
    private readonly storeFile: string,
    watchOrOptions: boolean | IndexOptions = true,
  ) {
    this.options = typeof watchOrOptions === 'boolean' ? { watchChanges: watchOrOptions } : watchOrOptions;
    this.watchChanges = this.options.watchChanges ?? true;
    // Indexing ignores the memory switch (results are filtered per query), so turning memory back on
    // needs no rescan; deny-listed files (secrets) are never read at all.
    this.sandbox = sandbox.unconcealed();
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
   * A first build of a big workspace takes a while: after `waitMs` the query answers from what is
   * indexed so far (complete: false) and the build goes on in the background.
   */
  async search(
    query: string,
    limit: number,
    visible: (path: string) => boolean,
    waitMs = 10_000,
  ): Promise<SemanticAnswer> {
    const deadline = Date.now() + waitMs;
    const complete = await within(this.refresh(), waitMs);
    const lexical = this.index.search(query, { limit: Math.max(limit, FUSION_CANDIDATES), filter: visible });
    const bm25 = async (notice?: string): Promise<SemanticAnswer> => ({
      hits: await this.snippets(lexical.slice(0, limit)),
      complete,
      ranking: 'bm25',
      status: this.status(),
      ...(notice === undefined ? {} : { notice }),
    });
    const source = this.options.embedder?.();
    if (source === undefined) return bm25();
    if (!source.ok)
      return bm25(`Ranked by words alone (BM25): the embedding model cannot be used (${source.error.message}).`);
    const embedder = source.value;
    // New passages get their vectors in the background; the query waits for them until its deadline.
    await within(this.embedPending(embedder, visible), Math.max(0, deadline - Date.now()));
    let queryVector: Float32Array;
    try {
      const [vector] = await embedder.embed([query]);
      if (vector === undefined) throw new Error('no vector for the query');
      queryVector = unitVector(vector);
    } catch (error) {
      return bm25(`Ranked by words alone (BM25): embedding the query failed (${messageOf(error)}).`);
    }
    const cache = this.vectors as VectorCache;
    const semantic = this.index.vectorSearch(queryVector, (hash) => cache.get(hash), {
      limit: FUSION_CANDIDATES,
      filter: visible,
    });
    const status = this.status();
    const partial =
      status.vectors !== undefined && status.vectors.embedded < status.vectors.chunks
        ? `Vectors cover ${status.vectors.embedded} of ${status.vectors.chunks} passages so far (still embedding).`
        : undefined;
    return {
      hits: await this.snippets(fuseRankings([lexical, semantic], limit)),
      complete,
      ranking: 'hybrid',
      status,
      ...(partial === undefined ? {} : { notice: partial }),
    };
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
      ...(this.vectors === undefined || this.vectorProgress === undefined
        ? {}
        : { vectors: { model: this.vectors.model, ...this.vectorProgress } }),
      ...(this.embeddingError === undefined ? {} : { embeddingError: this.embeddingError }),
    };
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

  /**
   * Vectors for the passages that have none (one pass at a time; a pass started for another model
   * is left to finish). Failures are kept for the status, never thrown: hybrid ranking then uses the
   * vectors there are.
   */
  embedPending(embedder: Embedder, include: (path: string) => boolean): Promise<void> {
    if (this.vectors?.model !== embedder.key) {
      this.vectors = VectorCache.in(this.options.vectorsDir ?? dirname(this.storeFile), embedder.key);
      this.vectorProgress = undefined;
      this.embeddedAt = undefined;
    }
    const cache = this.vectors;
    // Nothing indexed since the last complete pass (the common case, every query): no pass at all.
    const at = this.embeddedAt;
    if (
      this.embedding === undefined &&
      at?.changes === this.index.changes &&
      at.excluded.every((path) => !include(path))
    ) {
      return Promise.resolve();
    }
    this.embedding ??= this.queue
      .then(async () => {
        this.setState('embedding');
        const changes = this.index.changes;
        const { excluded } = await embedMissing(this.index, CHUNKING, cache, embedder, {
          include,
          readText: async (path, version) => {
            const fresh = this.freshTexts.get(path);
            if (fresh?.version === version) return fresh.text;
            const read = await readIndexable(this.sandbox, path, MAX_INDEXED_FILE_BYTES);
            this.filesRead += 1;
            if (read?.version === version) return read.text;
            this.dirty.add(path); // changed since it was indexed: the next refresh re-reads it
            return undefined;
          },
          progress: (embedded, chunks) => {
            this.vectorProgress = { embedded, chunks };
            this.emitStatus();
          },
        });
        this.embeddingError = undefined;
        // Only if nothing was indexed meanwhile: those passages still need their pass.
        if (this.index.changes === changes) this.embeddedAt = { changes, excluded };
      })
      .catch((error: unknown) => {
        this.embeddingError = messageOf(error);
      })
      .finally(async () => {
        this.vectorProgress = vectorCoverage(this.index, cache);
        this.embedding = undefined;
        this.freshTexts.clear();
        this.freshChars = 0;
        this.setState('ready');
        await cache.save().catch(() => undefined);
      });
    return this.embedding;
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
    for (const indexed of this.index.paths()) if (indexed.startsWith(`${path}/`)) this.dirty.add(indexed);
    // A folder, or a file in folders the scan has not walked yet: walk the highest new one.
    let dir = path;
    let highestNew: string | undefined;
    while (dir !== '' && !this.knownDirs.has(dir)) {
      highestNew = dir;
      dir = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';
    }
    if (highestNew !== undefined) this.newDirs.add(highestNew);
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
    this.setState('scanning');
    try {
      return await this.refreshIndex();
    } finally {
      this.setState('ready');
    }
  }

  private async refreshIndex(): Promise<IndexStats> {
    if (!this.loaded) await this.load();
    // Without ready watchers (not started yet, still starting, or dropped in a storm) only a full scan
    // can be trusted.
    const unwatched = this.watchChanges && !this.watchReady;
    if (this.needsFullScan || unwatched) {
      this.needsFullScan = false;
      this.dirty.clear();
      this.newDirs.clear();
      // The watcher starts beside the scan, not before it: on a big workspace chokidar's own crawl
      // takes seconds, and the first query after a restart must not wait for it. Changes made before
      // it is ready are caught by one more (stat-only) scan once it is.
      const canWatch = this.watchers.length === 0 && !this.closed && Date.now() >= this.unwatchedUntil;
      if (unwatched && canWatch) {
        void this.startWatching().then(() => {
          if (!this.watchReady || this.closed) return;
          this.needsFullScan = true;
          void this.refresh().catch(() => undefined);
        });
      }
      const reindexed = await this.fullScan();
      return { files: this.fileCount, reindexed, fullScan: true };
    }
    let reindexed = 0;
    for (const dir of [...this.newDirs]) {
      this.newDirs.delete(dir);
      reindexed += await this.scan(dir, false);
    }
    for (const path of [...this.dirty]) {
      this.dirty.delete(path);
      reindexed += (await this.update(path)) ? 1 : 0;
    }
    return { files: this.fileCount, reindexed, fullScan: false };
  }

  private async fullScan(): Promise<number> {
    const seen = new Set<string>();
    const reindexed = await this.scan('', true, seen);
    for (const path of [...this.index.paths()]) if (!seen.has(path)) this.index.removeDocument(path);
    this.scheduleSave();
    return reindexed;
  }

  /** Walks a folder (gitignore, persona overlay and deny-list applied) and indexes what changed. */
  private async scan(dir: string, full: boolean, seen = new Set<string>()): Promise<number> {
    const start = await this.sandbox.resolve(dir === '' ? '.' : dir, 'read');
    if (!start.ok || start.value.facts?.kind !== 'directory') return 0;
    if (full) this.knownDirs.clear();
    this.knownDirs.add(dir);
    const files: { relPath: string; facts: EntryFacts | undefined }[] = [];
    await this.sandbox.walk(start.value, {
      recursive: true,
      includeHidden: false,
      withFacts: true,
      visit: (entry) => {
        if (entry.kind === 'directory') this.knownDirs.add(entry.relPath);
        else if (entry.kind === 'file' && !this.sandbox.denyList.deniesRead(entry.relPath))
          files.push({ relPath: entry.relPath, facts: entry.facts });
        return 'continue';
      },
    });
    let reindexed = 0;
    this.filesFound = files.length;
    this.filesChecked = 0;
    this.emitStatus(true);
    // Read a few dozen files at a time: a restart checks 10,000 files, mostly unchanged (the walk's
    // lstat through the folder descriptor says so without reading them).
    for (let at = 0; at < files.length; at += READ_BATCH) {
      const batch = files.slice(at, at + READ_BATCH);
      for (const file of batch) seen.add(file.relPath);
      const changed = await Promise.all(batch.map((file) => this.indexFile(file.relPath, file.facts)));
      reindexed += changed.filter(Boolean).length;
      this.filesChecked += batch.length;
      this.emitStatus();
      await yieldToLoop();
    }
    if (reindexed > 0) this.scheduleSave();
    return reindexed;
  }

  /** A path the watcher reported: re-read it, or drop it when it is gone or no longer indexable. */
  private async update(relPath: string): Promise<boolean> {
    const parent = relPath.includes('/') ? relPath.slice(0, relPath.lastIndexOf('/')) : '';
    const indexable = this.knownDirs.has(parent) && !this.sandbox.denyList.deniesRead(relPath);
    if (!indexable) this.index.removeDocument(relPath);
    const changed = indexable && (await this.indexFile(relPath, undefined));
    this.scheduleSave();
    return changed;
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
    this.index.setDocument(relPath, read.text, read.version);
    if (this.options.embedder !== undefined && this.freshChars + read.text.length <= FRESH_TEXT_CHARS) {
      this.freshTexts.set(relPath, read);
      this.freshChars += read.text.length;
    }
    return true;
  }

  private async startWatching(): Promise<void> {
    const root = this.sandbox.workspaceRoot;
    const persona = this.sandbox.personaDir;
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
      if (this.watchers.length === 0 || this.stormed()) return;
      const rel = relative(base, abs).split(sep).join('/');
      if (rel === '' || rel.startsWith('..') || !accepts(rel)) return;
      if (rel === '.gitignore' || rel.endsWith('/.gitignore')) this.needsFullScan = true;
      else if (event === 'addDir') this.newDirs.add(rel);
      else if (event === 'unlinkDir') {
        for (const path of [...this.index.paths()]) if (path.startsWith(`${rel}/`)) this.dirty.add(path);
      } else this.dirty.add(rel);
    };
    const start = (base: string, accepts: (rel: string) => boolean) => {
      const watcher = watch(base, { ignoreInitial: true, followSymlinks: false, ignored: skipUnder(base) });
      watcher.on('all', onEvent(base, accepts));
      // A watcher that fails (no inotify watches left) must not leave a stale index: rescan per query.
      watcher.on('error', () => (this.needsFullScan = true));
      this.watchers.push(watcher);
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
    const isPersonaName = (rel: string) => personaEntryOf(rel.split('/')[0] ?? '') !== undefined;
    const ready = await Promise.all([
      start(root, (rel) => !overlay || !isPersonaName(rel)),
      ...(overlay ? [start(persona, isPersonaName)] : []),
    ]);
    if (this.watchers.length === 0) return; // dropped meanwhile (a storm, or closed)
    if (ready.every(Boolean)) {
      this.watchFailures = 0;
      this.watchReady = true;
    } else this.dropWatchers();
  }

  /**
   * Goes without watchers for a while (every query rescans meanwhile), longer each time in a row:
   * a folder that never settles must not keep chokidar busy.
   */
  private dropWatchers(): void {
    const watchers = this.watchers;
    this.watchers = [];
    this.watchReady = false;
    this.watchFailures += 1;
    this.unwatchedUntil = Date.now() + Math.min(STORM_PAUSE_MS * 2 ** (this.watchFailures - 1), MAX_UNWATCHED_MS);
    void Promise.all(watchers.map((watcher) => watcher.close())).catch(() => undefined);
  }

  /** Counts an event; in a storm drops the watchers (queries rescan until they are back). */
  private stormed(): boolean {
    const now = Date.now();
    if (now - this.eventWindowStart > 1000) {
      this.eventWindowStart = now;
      this.eventsInWindow = 0;
    }
    this.eventsInWindow += 1;
    if (this.eventsInWindow <= STORM_EVENTS_PER_SECOND) return false;
    this.dropWatchers();
    return true;
  }

  private async load(): Promise<void> {
    this.loaded = true;
    const saved = await readJsonFile(this.storeFile, savedIndexSchema);
    if (saved.state !== 'valid') return;
    try {
      const data = saved.value;
      if (data.format === FORMAT && data.root === this.root) this.index.load(data.index);
    } catch {
      // A damaged index file is rebuilt by the scan that follows.
    }
  }

  private scheduleSave(): void {
    if (this.saveTimer !== undefined || this.closed) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      // A cache: a save that fails (the data folder gone, a full disk) is redone after the next change.
      void this.save().catch(() => undefined);
    }, SAVE_DELAY_MS);
    this.saveTimer.unref();
  }

  /** Writes the index now (the bench measures its size; close() calls it). */
  async save(): Promise<number> {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    const text = JSON.stringify({ format: FORMAT, root: this.root, index: this.index.toJSON() });
    await ensureFolder(dirname(this.storeFile));
    await writeFileAtomic(this.storeFile, text);
    return Buffer.byteLength(text);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.watchers.map((watcher) => watcher.close()));
    this.watchers = [];
    if (this.saveTimer !== undefined) await this.queue.then(() => this.save()).catch(() => undefined);
    await this.embedding?.catch(() => undefined);
    await this.vectors?.save().catch(() => undefined);
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

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** One index per open workspace: switching folders closes the previous one (it stays saved on disk). */
export class WorkspaceIndexes {
  private current: WorkspaceIndex | undefined;
  private readonly listeners = new Set<IndexStatusListener>();
  private readonly options: IndexOptions;

  constructor(
    private readonly dir: string,
    options: boolean | IndexOptions = true,
  ) {
    const given = typeof options === 'boolean' ? { watchChanges: options } : options;
    this.options = {
      ...given,
      onStatus: (status) => {
        given.onStatus?.(status);
        for (const listener of this.listeners) listener(status);
      },
    };
  }

  /** Progress of whichever index is open (the UI's status line); answers the unsubscribe. */
  onStatus(listener: IndexStatusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  for(sandbox: WorkspaceSandbox): WorkspaceIndex {
    if (this.current?.root === sandbox.workspaceRoot) return this.current;
    void this.current?.close();
    const name = createHash('sha256').update(sandbox.workspaceRoot).digest('hex').slice(0, 16);
    this.current = new WorkspaceIndex(sandbox, join(this.dir, `${name}.json`), this.options);
    return this.current;
  }

  /** A tool changed this workspace path: the open index re-reads it on its next query. */
  noteChanged(workspaceRoot: string, relPath: string): void {
    if (this.current?.root === workspaceRoot) this.current.noteChanged(relPath);
  }

  async close(): Promise<void> {
    await this.current?.close();
    this.current = undefined;
  }
}
