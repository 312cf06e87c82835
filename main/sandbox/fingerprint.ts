import { createHash } from 'node:crypto';
import type { EntryFacts } from './workspace-sandbox';

/**
 * What the assistant saw of a file: size and mtime always; the content hash when it read the whole
 * file (a line range of a 200 MB log is not worth hashing the log for).
 */
export interface Fingerprint {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
  readonly hash?: string;
  /** The encoding the file was read with, so an edit writes it back the same way. */
  readonly encoding?: string;
}

/** SHA-1 is enough to notice a change (not an adversary) and the fastest digest node ships. */
export const hashBytes = (bytes: Uint8Array): string => createHash('sha1').update(bytes).digest('hex');

export function fingerprintOf(facts: EntryFacts, bytes?: Uint8Array): Fingerprint {
  const base = { size: facts.size, mtimeMs: facts.mtimeMs, ino: facts.ino };
  return bytes === undefined ? base : { ...base, hash: hashBytes(bytes) };
}

/**
 * Whether the file now (facts, and its bytes when the caller has them) is what was seen. Same size,
 * mtime and inode is taken as unchanged without hashing; otherwise the hash decides when there is one.
 */
export function sameContent(seen: Fingerprint, facts: EntryFacts, bytes?: Uint8Array): boolean {
  if (seen.size === facts.size && seen.mtimeMs === facts.mtimeMs && seen.ino === facts.ino) return true;
  if (seen.hash === undefined || bytes === undefined) return false;
  return seen.size === bytes.length && seen.hash === hashBytes(bytes);
}
