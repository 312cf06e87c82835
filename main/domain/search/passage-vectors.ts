import { messageOf } from '../../../shared/errors';
import type { Embedder } from '../providers/embedding-model';
import type { Bm25Index } from './bm25/bm25-index';
import type { ChunkOptions } from './chunk';
import { embedMissing, vectorCoverage } from './embedding-pass';
import type { IndexStatus } from './index-status';
import { VectorCache } from './vector-cache';

/** Texts kept between indexing and embedding (a cold build of a big workspace re-reads the rest). */
const FRESH_TEXT_CHARS = 16 * 1024 * 1024;

export interface PassageVectorsOptions {
  readonly index: Bm25Index;
  readonly chunking: ChunkOptions;
  /** Where each model's vector cache lives. */
  readonly dir: string;
  /** The index's work queue as it stands: a pass starts after the refresh in flight. */
  readonly queued: () => Promise<unknown>;
  /** Reads a file's text through the sandbox (undefined when it cannot be read as indexed text). */
  readonly read: (path: string) => Promise<{ text: string; version: string } | undefined>;
  /** The file changed since it was indexed: the next refresh re-reads it. */
  readonly onStale: (path: string) => void;
  readonly onState: (state: 'embedding' | 'ready') => void;
  readonly onProgress: () => void;
}

/**
 * The embedding vectors of the semantic index's passages: which model's cache is open, the pass in
 * flight, how far it got and why it failed. Apart from the index because the index is words (BM25,
 * always there) and this is the optional half that needs a configured model.
 */
export class PassageVectors {
  #cache: VectorCache | undefined;
  #progress: { embedded: number; chunks: number } | undefined;
  #error: string | undefined;
  #pass: Promise<void> | undefined;
  /** The index's change count and visibility rule when a pass last left no passage without a vector. */
  #embeddedAt: { changes: number; excluded: readonly string[] } | undefined;
  /** Texts just indexed, kept for the embedding pass so it need not read them again (bounded). */
  readonly #freshTexts = new Map<string, { text: string; version: string }>();
  #freshChars = 0;
  /** Aborted by close: a request in flight is given up (its batch is embedded again next time). */
  readonly #stop = new AbortController();

  constructor(private readonly options: PassageVectorsOptions) {}

  /** The open cache (after pending() for a model). */
  get cache(): VectorCache | undefined {
    return this.#cache;
  }

  /** Keeps a text just indexed for the next pass, within a memory budget. */
  remember(path: string, read: { text: string; version: string }): void {
    if (this.#freshChars + read.text.length > FRESH_TEXT_CHARS) return;
    this.#freshTexts.set(path, read);
    this.#freshChars += read.text.length;
  }

  /** A pass is under way (the answer says the index is still building). */
  get embedding(): boolean {
    return this.#pass !== undefined;
  }

  /** The vectors part of the index status. */
  status(): Pick<IndexStatus, 'vectors' | 'embeddingError'> {
    return {
      ...(this.#cache === undefined || this.#progress === undefined
        ? {}
        : { vectors: { model: this.#cache.model, ...this.#progress } }),
      ...(this.#error === undefined ? {} : { embeddingError: this.#error }),
    };
  }

  /**
   * Vectors for the passages that have none (one pass at a time; a pass started for another model
   * is left to finish). Failures are kept for the status, never thrown: hybrid ranking then uses the
   * vectors there are.
   */
  pending(embedder: Embedder, include: (path: string) => boolean): Promise<void> {
    const { index } = this.options;
    const cache = this.#cacheFor(embedder);
    if (this.#stop.signal.aborted) return Promise.resolve();
    // Nothing indexed since the last complete pass (the common case, every query): no pass at all.
    const at = this.#embeddedAt;
    if (this.#pass === undefined && at?.changes === index.changes && at.excluded.every((path) => !include(path))) {
      return Promise.resolve();
    }
    this.#pass ??= this.options
      .queued()
      .then(async () => {
        this.options.onState('embedding');
        const changes = index.changes;
        const { excluded } = await embedMissing(index, this.options.chunking, cache, embedder, {
          include,
          signal: this.#stop.signal,
          readText: async (path, version) => {
            const fresh = this.#freshTexts.get(path);
            if (fresh?.version === version) return fresh.text;
            const read = await this.options.read(path);
            if (read?.version === version) return read.text;
            this.options.onStale(path);
            return undefined;
          },
          progress: (embedded, chunks) => {
            this.#progress = { embedded, chunks };
            this.options.onProgress();
          },
        });
        this.#error = undefined;
        // Only if nothing was indexed meanwhile: those passages still need their pass.
        if (index.changes === changes) this.#embeddedAt = { changes, excluded };
      })
      .catch((error: unknown) => {
        this.#error = messageOf(error);
      })
      .finally(async () => {
        this.#progress = vectorCoverage(index, cache);
        this.#pass = undefined;
        this.#freshTexts.clear();
        this.#freshChars = 0;
        this.options.onState('ready');
        await cache.save().catch(() => undefined);
      });
    return this.#pass;
  }

  /** The model's cache, loaded, without a pass (a restart's first query answers before any). */
  async opened(embedder: Embedder): Promise<void> {
    await this.#cacheFor(embedder).load();
  }

  #cacheFor(embedder: Embedder): VectorCache {
    if (this.#cache?.model !== embedder.key) {
      this.#cache = VectorCache.in(this.options.dir, embedder.key);
      this.#progress = undefined;
      this.#embeddedAt = undefined;
    }
    return this.#cache;
  }

  async close(): Promise<void> {
    this.#stop.abort();
    await this.#pass?.catch(() => undefined);
    await this.#cache?.save().catch(() => undefined);
  }
}
