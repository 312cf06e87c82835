/**
 * The parts of the semantic index (issue 32 items 5 and 7: on disk in segments, small in memory). A
 * segment holds some files' chunks and the postings of their terms; Bm25Index (bm25-index.ts) keeps
 * one LiveSegment (live-segment.ts) in memory for what changes and immutable DiskSegments
 * (disk-segment.ts, format in segment-format.ts) for the rest, and scores over all of them. A deleted
 * or replaced file is masked in the segment that holds it.
 */

/** Postings pack a chunk slot and its weighted term frequency (halves: a heading word weighs 1.5). */
export const TF_RANGE = 4096;

export const packPosting = (slot: number, tf: number): number =>
  slot * TF_RANGE + Math.min(TF_RANGE - 1, Math.round(tf * 2));

/** A term's postings in one segment (deleted chunks included: the caller skips them). */
export interface TermPostings {
  readonly count: number;
  readonly slots: ArrayLike<number>;
  /** Twice the weighted term frequency. */
  readonly tf2: ArrayLike<number>;
}

/** What Bm25Index reads from any segment, in memory or on disk. */
export interface Segment {
  /** Chunk slots, deleted ones included. */
  readonly slotCount: number;
  readonly fileCount: number;
  /** Chunks not deleted, and their total length in terms. */
  readonly liveChunks: number;
  readonly liveLength: number;
  readonly deadChunks: number;
  path(file: number): string;
  version(file: number): string;
  firstChunk(file: number): number;
  chunkCount(file: number): number;
  fileDeleted(file: number): boolean;
  deleteFile(file: number): void;
  chunkDead(slot: number): boolean;
  chunkFile(slot: number): number;
  startLine(slot: number): number;
  endLine(slot: number): number;
  chunkLength(slot: number): number;
  heading(slot: number): string;
  /** base64url of the chunk text's sha1: its vector's key. */
  hash(slot: number): string;
  /** The same sha1 as bytes (a flush or merge copies them). */
  hashBytes(slot: number): Buffer;
  postings(term: string): TermPostings | undefined;
}

/** A chunk as the index adds it. */
export interface NewChunk {
  readonly startLine: number;
  readonly endLine: number;
  readonly heading: string;
  readonly length: number;
  readonly hash: string;
  /** Term → weighted frequency. */
  readonly counts: ReadonlyMap<string, number>;
}

/**
 * The column accessors and the deletion bookkeeping both segments share; each keeps its columns its
 * own way (growing arrays in memory, typed arrays read from a file's head).
 */
export abstract class ColumnSegment implements Segment {
  protected abstract readonly paths: readonly string[];
  protected abstract readonly versions: readonly string[];
  /** Per file: its first chunk slot and its chunk count. */
  protected abstract readonly firsts: ArrayLike<number>;
  protected abstract readonly counts: ArrayLike<number>;
  /** Per chunk slot. */
  protected abstract readonly chunkFiles: ArrayLike<number>;
  protected abstract readonly starts: ArrayLike<number>;
  protected abstract readonly ends: ArrayLike<number>;
  protected abstract readonly lengths: ArrayLike<number>;
  liveChunks = 0;
  liveLength = 0;
  deadChunks = 0;

  abstract readonly slotCount: number;
  abstract readonly fileCount: number;
  abstract fileDeleted(file: number): boolean;
  abstract chunkDead(slot: number): boolean;
  abstract heading(slot: number): string;
  abstract hash(slot: number): string;
  abstract hashBytes(slot: number): Buffer;
  abstract postings(term: string): TermPostings | undefined;
  /** Marks a file deleted; answers false when there is no such live file (nothing to do). */
  protected abstract markFileDeleted(file: number): boolean;
  /** Marks one of a deleted file's chunks (a segment that derives it from the file does nothing). */
  protected abstract markChunkDeleted(slot: number): void;

  path(file: number) {
    return this.paths[file] as string;
  }
  version(file: number) {
    return this.versions[file] as string;
  }
  firstChunk(file: number) {
    return this.firsts[file] as number;
  }
  chunkCount(file: number) {
    return this.counts[file] as number;
  }
  chunkFile(slot: number) {
    return this.chunkFiles[slot] as number;
  }
  startLine(slot: number) {
    return this.starts[slot] as number;
  }
  endLine(slot: number) {
    return this.ends[slot] as number;
  }
  chunkLength(slot: number) {
    return this.lengths[slot] as number;
  }

  deleteFile(file: number): void {
    if (!this.markFileDeleted(file)) return;
    const first = this.firsts[file] as number;
    for (let slot = first; slot < first + (this.counts[file] as number); slot += 1) {
      this.markChunkDeleted(slot);
      this.liveChunks -= 1;
      this.liveLength -= this.lengths[slot] as number;
      this.deadChunks += 1;
    }
  }
}
