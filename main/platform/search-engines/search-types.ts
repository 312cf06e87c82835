import type { AnchoredFiles } from '../disk/anchored-batch';

/**
 * What the file workers are asked and answer (fs-worker-jobs.ts runs the jobs). Plain data: it
 * crosses between threads by structured clone.
 */

/**
 * lstat results of a list of files, flat: [kind, size] per path (kind 0 file, 1 folder, 2 symlink,
 * 3 special, -1 gone). A typed array crosses threads as one copy, not one object per entry.
 */
export type StatRows = Float64Array;

export interface SearchSpec {
  /**
   * bytes: a case-sensitive literal found in raw bytes (Buffer.indexOf); nocase: an ASCII literal
   * found case-insensitively in raw bytes (Boyer-Moore-Horspool over folded bytes); latin1: an
   * ASCII-only regex over the bytes read as latin1 (offsets are byte offsets); utf8: any regex over
   * decoded text.
   */
  readonly mode: 'bytes' | 'nocase' | 'latin1' | 'utf8';
  /** bytes/nocase: the needle's bytes as a latin1 string; otherwise a regex source. */
  readonly pattern: string;
  /** Regex flags besides 'g' ('i', 'u', 'm'...). */
  readonly flags: string;
  readonly contextLines: number;
  readonly maxLineChars: number;
  /**
   * For a regex (utf8 mode) with a literal every match must contain: lines are found by that literal
   * in raw bytes, and only those lines are decoded and run through the regex (ripgrep does the same).
   * `needle` is the literal's UTF-8 bytes as a latin1 string; `nocase` needs an ASCII needle.
   */
  readonly prefilter?: { readonly needle: string; readonly nocase: boolean };
}

export interface SearchJob {
  readonly spec: SearchSpec;
  readonly files: AnchoredFiles;
  /** Matches to describe per file (line, text, context); the rest are only counted. */
  readonly maxDetails: number;
  /**
   * Each file's count stands already (ripgrep's, checked): a file is read only until `maxDetails`
   * (at least 1) matches are described, their context with them, and is then named in `stopped`.
   * The first thousand lines of a 200 MB log cost its first 4 MB read, not all of it.
   */
  readonly stopWhenDescribed?: boolean;
}

export interface SearchHit {
  readonly line: number;
  readonly column: number;
  readonly text: string;
  readonly before: string[];
  readonly after: string[];
}

export interface FileMatches {
  /** Index of the file in the job's list. */
  readonly index: number;
  /** Matching lines in the whole file; in a file read only in part (`stopped`), those in that part. */
  readonly count: number;
  readonly hits: SearchHit[];
}

export interface SearchJobResult {
  /** Files whose matches are described (hits), in job order. */
  readonly files: FileMatches[];
  /** Every file with a match: [index, count] pairs, flat (cheap to pass between threads); a count as in FileMatches. */
  readonly counts: Int32Array;
  readonly bytes: number;
  readonly binary: number;
  /** With stopWhenDescribed: the files read only until their lines were described (job indices). */
  readonly stopped?: Int32Array;
}
