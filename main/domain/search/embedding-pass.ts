import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Embedder } from '../providers/embedding-model';
import { chunkHash } from './bm25/bm25-index';
import type { Bm25Index } from './bm25/bm25-index';
import { chunkText } from './chunk';
import type { ChunkOptions } from './chunk';
import type { VectorCache } from './vector-cache';

/** Passages per embeddings request: small enough for every server's input limit, big enough to amortize. */
const EMBED_BATCH = 32;

export interface EmbeddingPassHooks {
  /** The file's text if it is still the version indexed (undefined: changed meanwhile, skipped). */
  readonly readText: (path: string, version: string) => Promise<string | undefined>;
  readonly progress: (embedded: number, chunks: number) => void;
  /** Files whose passages may go to the provider now (memory files while memory is off may not). */
  readonly include: (path: string) => boolean;
  readonly signal?: AbortSignal;
}

/** Counts the indexed passages and those that already have a vector in `cache`. */
export function vectorCoverage(index: Bm25Index, cache: VectorCache): { embedded: number; chunks: number } {
  let embedded = 0;
  let chunks = 0;
  for (const path of index.paths()) {
    for (const hash of index.chunkHashes(path)) {
      chunks += 1;
      if (cache.has(hash)) embedded += 1;
    }
  }
  return { embedded, chunks };
}

/**
 * Gives every indexed passage without a cached vector one: the index keeps no text, so the files
 * concerned are read again (through `readText`, i.e. the sandbox) and chunked the way the index did;
 * passages that already have a vector (by content hash, for this model) are never sent again.
 */
export async function embedMissing(
  index: Bm25Index,
  chunking: ChunkOptions,
  cache: VectorCache,
  embedder: Embedder,
  hooks: EmbeddingPassHooks,
): Promise<{ excluded: string[] }> {
  await cache.load();
  const coverage = vectorCoverage(index, cache);
  const chunks = coverage.chunks;
  let embedded = coverage.embedded;
  hooks.progress(embedded, chunks);
  const excluded: string[] = [];
  const files = [...index.paths()].filter((path) => {
    if (!index.chunkHashes(path).some((hash) => !cache.has(hash))) return false;
    if (hooks.include(path)) return true;
    excluded.push(path);
    return false;
  });
  let pending: { hash: string; text: string }[] = [];
  const queued = new Set<string>();
  const flush = async () => {
    const batch = pending;
    pending = [];
    const vectors = await embedder.embed(
      batch.map((item) => item.text),
      hooks.signal,
    );
    if (vectors.length !== batch.length) throw new Error('The embedding model answered a different number of vectors.');
    batch.forEach((item, at) => cache.set(item.hash, vectors[at] as number[]));
    // Each batch goes to disk as it comes (a segment): a restart resumes after the last one.
    await cache.save();
    embedded += batch.length;
    hooks.progress(embedded, chunks);
  };
  for (const path of files) {
    if (hooks.signal?.aborted === true) return { excluded };
    const version = index.versionOf(path);
    if (version === undefined) continue;
    const wanted = new Set(index.chunkHashes(path).filter((hash) => !cache.has(hash)));
    const text = await hooks.readText(path, version);
    if (text === undefined) continue;
    for (const chunk of chunkText(text, chunking)) {
      const hash = chunkHash(chunk.text);
      if (!wanted.has(hash) || queued.has(hash)) continue;
      queued.add(hash);
      pending.push({ hash, text: chunk.text });
      if (pending.length >= EMBED_BATCH) await flush();
    }
    await yieldToLoop();
  }
  if (pending.length > 0) await flush();
  /** Files left without vectors because they may not go to the provider now. */
  return { excluded };
}
