import { err } from '../../../shared/result';
import { hashBytes } from '../../platform/disk/fingerprint';
import { looksBinary, sniffBytes } from '../../platform/disk/text-codec';
import type { EntryFacts, WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';

/**
 * What an index keeps to know a file again: its identity and version (dev, ino, size, mtime) and a
 * hash of the content it indexed. Indexes hold workspace-relative names only; every byte they read,
 * at build time and again for each hit's snippet at query time, comes through the sandbox.
 */
export const identityOf = (facts: Pick<EntryFacts, 'dev' | 'ino' | 'size' | 'mtimeMs'>): string =>
  `${facts.dev}:${facts.ino}:${facts.size}:${facts.mtimeMs}`;

/** The stored version: identity plus content hash. A file whose identity still matches needs no re-read. */
export const versionOf = (facts: EntryFacts, bytes: Uint8Array): string => `${identityOf(facts)}:${hashBytes(bytes)}`;

export const sameIdentity = (
  version: string | undefined,
  facts: Pick<EntryFacts, 'dev' | 'ino' | 'size' | 'mtimeMs'>,
) => version !== undefined && version.startsWith(`${identityOf(facts)}:`);

export interface IndexedText {
  readonly text: string;
  readonly version: string;
}

/**
 * Reads an indexable text file through the sandbox: a regular file reached by its own name (no
 * symlink anywhere on the way: an index never follows one, even one that appeared later), not
 * binary, at most `maxBytes`. Undefined when it is none of that (any more).
 */
export async function readIndexable(
  sandbox: WorkspaceSandbox,
  relPath: string,
  maxBytes: number,
): Promise<IndexedText | undefined> {
  const resolved = await sandbox.resolve(relPath, 'read', { followFinal: false });
  if (!resolved.ok || resolved.value.facts?.kind !== 'file' || resolved.value.realRel !== resolved.value.relPath) {
    return undefined;
  }
  const read = await sandbox.readWholeFile(resolved.value, maxBytes, () => err('file_too_large', ''));
  if (!read.ok) return undefined;
  const { bytes, facts } = read.value;
  if (looksBinary(bytes.subarray(0, Math.min(sniffBytes, bytes.length)), undefined)) return undefined;
  return { text: bytes.toString('utf8'), version: versionOf(facts, bytes) };
}

/**
 * A hit's lines, read again through the sandbox at query time: undefined (the hit is dropped)
 * unless the file is still the very one indexed, by identity and content.
 */
export async function linesIfUnchanged(
  sandbox: WorkspaceSandbox,
  relPath: string,
  version: string,
  maxBytes: number,
): Promise<string[] | undefined> {
  const now = await readIndexable(sandbox, relPath, maxBytes);
  if (now === undefined || now.version !== version) return undefined;
  return now.text.split(/\r?\n/);
}
