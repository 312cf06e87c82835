import type { EntryFacts } from './resolved-path';

/** One checkpoint every this many lines: a read lands at most this many lines before its start. */
export const CHECKPOINT_LINES = 4096;
/** Files whose offsets are kept (least recently read dropped first). */
const MAX_FILES = 64;
/** Checkpoints kept over all files (8 bytes each: 8 MB, i.e. ~4 billion lines' worth). */
const MAX_CHECKPOINTS = 1 << 20;

/**
 * The sparse line-offset index of one version of one file: where every CHECKPOINT_LINES-th line
 * starts (checkpoint k is the byte offset of line k * CHECKPOINT_LINES + 1), learned by the scans
 * that read the file, and its line count once a scan reached the end. Only byte-wise encodings use
 * it (a newline is the byte 0x0A there, so offsets do not depend on the encoding).
 */
export interface LineOffsets {
  /** The file's size at this version: a scan that finds more or fewer bytes (a write under way) records nothing past it. */
  readonly size: number;
  /** Byte offsets, ascending; [0] is where line 1 starts (after a byte order mark). */
  readonly checkpoints: number[];
  totalLines: number | undefined;
}

/**
 * A file version's identity: the same device, inode, size and modification time mean the same
 * bytes (the assumption every incremental tool makes); a write changes mtime or size, a replace the inode.
 */
export const fileVersionKey = (facts: Pick<EntryFacts, 'dev' | 'ino' | 'size' | 'mtimeMs'>, bomLength: number) =>
  `${facts.dev}:${facts.ino}:${facts.size}:${facts.mtimeMs}:${bomLength}`;

/**
 * Line offsets of recently read files, by version, bounded in files and checkpoints: a second read
 * anywhere in a huge file starts at the checkpoint before it instead of at byte 0. A changed file has
 * another key, so its old offsets are never used (and age out).
 */
export class LineOffsetCache {
  readonly #entries = new Map<string, LineOffsets>();
  #checkpoints = 0;

  constructor(
    private readonly maxFiles = MAX_FILES,
    private readonly maxCheckpoints = MAX_CHECKPOINTS,
  ) {}

  /** The offsets of this file version (empty ones when unknown), marked most recently used. */
  for(facts: Pick<EntryFacts, 'dev' | 'ino' | 'size' | 'mtimeMs'>, bomLength: number): LineOffsets {
    const key = fileVersionKey(facts, bomLength);
    const known = this.#entries.get(key);
    if (known !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, known);
      return known;
    }
    // The same file at another version: its offsets are stale.
    const inode = `${facts.dev}:${facts.ino}:`;
    for (const [other, offsets] of this.#entries) {
      if (other.startsWith(inode)) this.#drop(other, offsets);
    }
    const fresh: LineOffsets = { size: facts.size, checkpoints: [bomLength], totalLines: undefined };
    this.#entries.set(key, fresh);
    this.trim();
    return fresh;
  }

  /** Files known (for tests and the bench). */
  get size(): number {
    return this.#entries.size;
  }

  /** Drops the least recently used entries until both bounds hold; a scan calls it after it added checkpoints. */
  trim(): void {
    this.#checkpoints = 0;
    for (const offsets of this.#entries.values()) this.#checkpoints += offsets.checkpoints.length;
    for (const [key, offsets] of this.#entries) {
      if (this.#entries.size <= this.maxFiles && this.#checkpoints <= this.maxCheckpoints) break;
      this.#drop(key, offsets);
    }
  }

  #drop(key: string, offsets: LineOffsets): void {
    this.#entries.delete(key);
    this.#checkpoints -= offsets.checkpoints.length;
  }
}

/** The process's cache: read_file and get_file_info share what their scans learned. */
export const lineOffsetCache = new LineOffsetCache();
