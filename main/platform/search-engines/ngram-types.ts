/**
 * What the file workers answer when asked to index files for the trigram index
 * (main/domain/search/ngram): plain data, typed arrays, cheap to pass between threads.
 */

/** Per-file state in a segment: trigrams indexed, binary (never matches), or searched by every query. */
export const NGRAM_INDEXED = 0;
export const NGRAM_BINARY = 1;
/** UTF-16 text, a file too big to index, or one the sandbox would not read at indexing time. */
export const NGRAM_ALWAYS = 2;
/**
 * Changed too recently to trust its ctime (file times tick coarsely: a second write in the same
 * tick leaves the same size and ctime, "racy git"): searched by every query and indexed again.
 */
export const NGRAM_RACY = 3;
/**
 * Indexed like NGRAM_INDEXED, in UTF-8 with a byte-order mark: ripgrep drops the mark where the JS
 * engine keeps it (U+FEFF), so ripgrep's count of its lines is never taken as the JS engine's.
 */
export const NGRAM_BOM = 4;

/**
 * The trigrams of a batch of files: sorted distinct keys, and per key the files (their index in the
 * batch, ascending) holding it, delta-encoded as LEB128 varints: most deltas fit one byte.
 */
export interface NgramSegment {
  /**
   * Per file, in job order: size and ctime as fstat saw them BEFORE the read (a later write shows).
   * ctime, not mtime: every write moves it and nobody can set it back.
   */
  readonly sizes: Float64Array;
  readonly ctimes: Float64Array;
  readonly flags: Uint8Array;
  readonly keys: Uint32Array;
  /** End offset in `postings` of each key's list (its start is the previous key's end). */
  readonly ends: Uint32Array;
  readonly postings: Uint8Array;
  /** Text bytes read and indexed. */
  readonly bytes: number;
}

/**
 * A trigram's key: three bytes, ASCII letters folded to lower case, so one index answers
 * case-sensitive and case-insensitive queries (a case-sensitive query just gets more candidates).
 */
export const foldByte = (byte: number): number => (byte >= 65 && byte <= 90 ? byte + 32 : byte);

export const trigramKey = (a: number, b: number, c: number): number =>
  (foldByte(a) << 16) | (foldByte(b) << 8) | foldByte(c);
