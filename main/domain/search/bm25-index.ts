import { createHash } from 'node:crypto';
import { chunkText } from './chunk';
import type { ChunkOptions } from './chunk';
import type { ChunkHit, SearchOptions } from './text-index';
import { processTerm, tokenize } from './tokenize';

/** BM25 constants as MiniSearch and Lucene use them. */
const K1 = 1.2;
const B = 0.7;
/** A heading word counts as this many occurrences in its chunk. */
const HEADING_WEIGHT = 1.5;

interface Chunk {
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly heading: string;
  readonly length: number;
  /** Hash of the chunk's text: the key of its embedding vector (the same text anywhere shares one). */
  readonly hash: string;
}

/** The key of a chunk's text (its vector's cache key, with the model). */
export const chunkHash = (text: string): string => createHash('sha1').update(text).digest('base64url');

/**
 * A term's postings, one number each: the chunk slot and its weighted term frequency packed as
 * `slot * TF_RANGE + tf * 2` (tf counts halves: a heading word weighs 1.5). Slots ascend; entries of
 * removed chunks stay until the next compaction. One plain array per term (no object, no second
 * array): a workspace of code has millions of terms, most with a posting or two (issue 32, memory).
 */
type Postings = number[];
const TF_RANGE = 4096;
const pack = (slot: number, tf: number) => slot * TF_RANGE + Math.min(TF_RANGE - 1, Math.round(tf * 2));
const slotOf = (posting: number) => Math.floor(posting / TF_RANGE);
const tfOf = (posting: number) => (posting % TF_RANGE) / 2;

interface SavedIndex {
  readonly chunks: (Chunk | null)[];
  readonly postings: [string, number[], number[]][];
  readonly files: [string, number[], string][];
}

/**
 * A compact BM25 index for a whole workspace: flat postings per term and a score array per query, so
 * a query costs a pass over the postings of its few terms (no per-match objects, no full sort: only
 * the top k are kept). TextIndex (MiniSearch, with prefix and fuzzy matching) serves the small memory
 * corpus; at 10,000 files its per-match result objects made queries several times slower than here.
 * Same tokenizer and stemmers, so both understand the same word forms.
 */
export class Bm25Index {
  private chunks: (Chunk | null)[] = [];
  private postings = new Map<string, Postings>();
  /** Path → its chunk slots and the version (identity and content hash) it was indexed at. */
  private readonly files = new Map<string, { slots: number[]; version: string }>();
  private liveChunks = 0;
  private totalLength = 0;
  private deadChunks = 0;
  /** Counts changes (documents set or removed): a pass over the index can tell it has nothing new. */
  private changeCount = 0;

  constructor(private readonly chunking: ChunkOptions) {}

  get changes(): number {
    return this.changeCount;
  }

  get documentCount(): number {
    return this.files.size;
  }

  versionOf(path: string): string | undefined {
    return this.files.get(path)?.version;
  }

  paths(): IterableIterator<string> {
    return this.files.keys();
  }

  setDocument(path: string, text: string, version: string): void {
    this.removeDocument(path);
    this.changeCount += 1;
    const slots: number[] = [];
    for (const chunk of chunkText(text, this.chunking)) {
      const counts = new Map<string, number>();
      let length = 0;
      for (const word of tokenize(chunk.text)) {
        for (const term of processTerm(word)) {
          counts.set(term, (counts.get(term) ?? 0) + 1);
          length += 1;
        }
      }
      for (const word of tokenize(chunk.heading ?? '')) {
        for (const term of processTerm(word)) counts.set(term, (counts.get(term) ?? 0) + HEADING_WEIGHT);
      }
      const slot = this.chunks.length;
      this.chunks.push({
        path,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        heading: chunk.heading ?? '',
        length,
        hash: chunkHash(chunk.text),
      });
      for (const [term, tf] of counts) {
        const list = this.postings.get(term);
        if (list === undefined) this.postings.set(term, [pack(slot, tf)]);
        else list.push(pack(slot, tf));
      }
      slots.push(slot);
      this.liveChunks += 1;
      this.totalLength += length;
    }
    this.files.set(path, { slots, version });
  }

  removeDocument(path: string): void {
    const file = this.files.get(path);
    if (file === undefined) return;
    this.changeCount += 1;
    for (const slot of file.slots) {
      const chunk = this.chunks[slot];
      if (chunk === null || chunk === undefined) continue;
      this.totalLength -= chunk.length;
      this.liveChunks -= 1;
      this.deadChunks += 1;
      this.chunks[slot] = null;
    }
    this.files.delete(path);
    // Removed chunks leave stale postings behind; rebuild once they are as many as the live ones.
    if (this.deadChunks > 1000 && this.deadChunks > this.liveChunks) this.compact();
  }

  search(query: string, options: SearchOptions): ChunkHit[] {
    const terms = [...new Set(tokenize(query).flatMap((word) => processTerm(word)))];
    if (terms.length === 0 || this.liveChunks === 0) return [];
    const scores = new Float64Array(this.chunks.length);
    const matched = new Map<number, string[]>();
    const averageLength = this.totalLength / this.liveChunks || 1;
    for (const term of terms) {
      const list = this.postings.get(term);
      if (list === undefined) continue;
      const df = Math.min(list.length, this.liveChunks);
      const idf = Math.log(1 + (this.liveChunks - df + 0.5) / (df + 0.5));
      for (let at = 0; at < list.length; at += 1) {
        const slot = slotOf(list[at] as number);
        const chunk = this.chunks[slot];
        if (chunk === null || chunk === undefined) continue;
        const tf = tfOf(list[at] as number);
        scores[slot] =
          (scores[slot] as number) + (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * chunk.length) / averageLength));
        const seen = matched.get(slot);
        if (seen === undefined) matched.set(slot, [term]);
        else seen.push(term);
      }
    }
    // Keep the best `limit` (weights and filters applied), without sorting every match.
    const best: ChunkHit[] = [];
    const allowed = new Map<string, boolean>();
    for (const [slot, hitTerms] of matched) {
      const chunk = this.chunks[slot] as Chunk;
      let ok = allowed.get(chunk.path);
      if (ok === undefined) {
        ok = options.filter?.(chunk.path) ?? true;
        allowed.set(chunk.path, ok);
      }
      if (!ok) continue;
      const score = (scores[slot] as number) * (options.weight?.(chunk.path) ?? 1);
      if (best.length === options.limit && score <= (best.at(-1) as ChunkHit).score) continue;
      const hit: ChunkHit = {
        path: chunk.path,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        heading: chunk.heading === '' ? undefined : chunk.heading,
        score,
        terms: hitTerms,
      };
      let index = best.length;
      while (index > 0 && (best[index - 1] as ChunkHit).score < score) index -= 1;
      best.splice(index, 0, hit);
      if (best.length > options.limit) best.pop();
    }
    return best;
  }

  /** The content hashes of a file's chunks (empty when it is not indexed). */
  chunkHashes(path: string): string[] {
    const file = this.files.get(path);
    if (file === undefined) return [];
    return file.slots.flatMap((slot) => {
      const chunk = this.chunks[slot];
      return chunk === null || chunk === undefined ? [] : [chunk.hash];
    });
  }

  /**
   * The chunks nearest to a query vector by `scoreOf` (the cosine, from the vector cache), among
   * those that have a vector; the best `limit`, filters applied.
   */
  vectorSearch(scoreOf: (hash: string) => number | undefined, options: SearchOptions) {
    const best: ChunkHit[] = [];
    const allowed = new Map<string, boolean>();
    for (const chunk of this.chunks) {
      if (chunk === null) continue;
      const score = scoreOf(chunk.hash);
      if (score === undefined) continue;
      if (best.length === options.limit && score <= (best.at(-1) as ChunkHit).score) continue;
      // The filter (concealment, deny-list globs) only for the few that would make the list.
      let ok = allowed.get(chunk.path);
      if (ok === undefined) {
        ok = options.filter?.(chunk.path) ?? true;
        allowed.set(chunk.path, ok);
      }
      if (!ok) continue;
      let index = best.length;
      while (index > 0 && (best[index - 1] as ChunkHit).score < score) index -= 1;
      best.splice(index, 0, {
        path: chunk.path,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        heading: chunk.heading === '' ? undefined : chunk.heading,
        score,
        terms: [],
      });
      if (best.length > options.limit) best.pop();
    }
    return best;
  }

  toJSON(): SavedIndex {
    this.compact();
    return {
      chunks: this.chunks,
      postings: [...this.postings].map(([term, list]) => [term, list.map(slotOf), list.map(tfOf)]),
      files: [...this.files].map(([path, file]) => [path, file.slots, file.version]),
    };
  }

  /** Restores a saved index; answers false (and stays empty) when the data does not fit. */
  load(saved: unknown): boolean {
    try {
      const data = saved as SavedIndex;
      const chunks = data.chunks;
      const postings = new Map<string, Postings>(
        data.postings.map(([term, slots, tfs]) => [term, slots.map((slot, at) => pack(slot, tfs[at] as number))]),
      );
      this.files.clear();
      for (const [path, slots, version] of data.files) this.files.set(path, { slots, version });
      this.chunks = chunks;
      this.postings = postings;
      this.liveChunks = 0;
      this.totalLength = 0;
      this.deadChunks = 0;
      for (const chunk of chunks) {
        if (chunk === null) this.deadChunks += 1;
        else {
          this.liveChunks += 1;
          this.totalLength += chunk.length;
        }
      }
      return true;
    } catch {
      this.chunks = [];
      this.postings = new Map();
      this.files.clear();
      return false;
    }
  }

  /** Renumbers live chunks densely and drops stale postings. */
  private compact(): void {
    if (this.deadChunks === 0) return;
    const renumber = new Int32Array(this.chunks.length).fill(-1);
    const chunks: Chunk[] = [];
    this.chunks.forEach((chunk, slot) => {
      if (chunk !== null) {
        renumber[slot] = chunks.length;
        chunks.push(chunk);
      }
    });
    for (const [term, list] of this.postings) {
      const kept: Postings = [];
      for (const posting of list) {
        const next = renumber[slotOf(posting)] as number;
        if (next !== -1) kept.push(pack(next, tfOf(posting)));
      }
      if (kept.length === 0) this.postings.delete(term);
      else this.postings.set(term, kept);
    }
    for (const file of this.files.values()) file.slots = file.slots.map((slot) => renumber[slot] as number);
    this.chunks = chunks;
    this.deadChunks = 0;
  }
}
