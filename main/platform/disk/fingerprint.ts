import { createHash } from 'node:crypto';
import type { EntryFacts } from './resolved-path';

/**
 * What the assistant saw of a file: size, times and inode always; the content hash when it read (or
 * wrote) the whole file (a line range of a 200 MB log is not worth hashing the log for).
 */
export interface Fingerprint {
  readonly size: number;
  readonly mtimeMs: number;
  /** Changes with every write and cannot be set back by a program (mtime can: `touch -d`). */
  readonly ctimeMs: number;
  readonly ino: number;
  readonly hash?: string;
  /** The encoding the file was read with, so an edit writes it back the same way. */
  readonly encoding?: string;
}

/** SHA-1 is enough to notice a change (not an adversary) and the fastest digest node ships. */
export const hashBytes = (bytes: Uint8Array | readonly Uint8Array[]): string => {
  const hash = createHash('sha1');
  for (const piece of bytes instanceof Uint8Array ? [bytes] : bytes) hash.update(piece);
  return hash.digest('hex');
};

export function fingerprintOf(facts: EntryFacts, bytes?: Uint8Array | readonly Uint8Array[]): Fingerprint {
  const base = { size: facts.size, mtimeMs: facts.mtimeMs, ctimeMs: facts.ctimeMs, ino: facts.ino };
  return bytes === undefined ? base : { ...base, hash: hashBytes(bytes) };
}

/**
 * Whether the file now (facts, and its bytes when the caller has them) is what was seen. A different
 * size is a change without hashing (the fast path); otherwise the content hash decides when both
 * sides have one, so a same-size rewrite with its mtime put back is still caught. Without bytes to
 * hash, every time stamp must match, ctime included.
 */
export function sameContent(seen: Fingerprint, facts: EntryFacts, bytes?: Uint8Array): boolean {
  if (seen.size !== facts.size) return false;
  if (seen.hash !== undefined && bytes !== undefined)
    return bytes.length === seen.size && seen.hash === hashBytes(bytes);
  return seen.mtimeMs === facts.mtimeMs && seen.ctimeMs === facts.ctimeMs && seen.ino === facts.ino;
}
