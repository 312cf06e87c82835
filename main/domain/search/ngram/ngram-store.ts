import { join } from 'node:path';
import type { WorkspaceSandbox } from '../../../platform/disk/workspace-sandbox';
import { writeFileAtomic } from '../../../platform/storage/atomic-file';
import { openDataRanges } from '../../../platform/storage/binary-file';
import { ensureFolder } from '../../../platform/storage/folders';
import type { NgramIndex } from './ngram-index';
import { openSavedIndex, saveIndex } from './ngram-file';

/** Saved format; another number (or another workspace) means the file is rebuilt. */
const FORMAT = 2;

/** What the saved file records of its workspace: undefined while the workspace folder is not open. */
export type IndexIdentity = { format: number; root: string; dev: number; ino: number } | undefined;

export function indexIdentity(sandbox: WorkspaceSandbox): IndexIdentity {
  const anchor = sandbox.anchorOf(false);
  return anchor === undefined
    ? undefined
    : { format: FORMAT, root: anchor.dir.path, dev: anchor.dir.dev, ino: anchor.dir.ino };
}

/**
 * The index saved in `storeFile` when it is this workspace's (`identity`), with the file's size;
 * else undefined: none saved, unreadable, or another workspace's (closed again).
 */
export async function openStoredIndex(
  storeFile: string,
  identity: IndexIdentity,
): Promise<{ readonly index: NgramIndex; readonly size: number } | undefined> {
  const file = await openDataRanges(storeFile);
  const loaded = file === undefined ? undefined : await openSavedIndex(file);
  if (loaded?.ok !== true) return undefined;
  if (JSON.stringify(loaded.identity) !== JSON.stringify(identity)) {
    await loaded.index.close();
    return undefined;
  }
  return { index: loaded.index, size: file!.size };
}

/**
 * Writes `index` to `storeFile` (atomically; its folder made first) and answers the bytes written.
 * Its postings must be in memory (NgramIndex.loadPostings).
 */
export async function storeIndex(storeFile: string, index: NgramIndex, identity: IndexIdentity): Promise<number> {
  const parts = saveIndex(index, identity);
  await ensureFolder(join(storeFile, '..'));
  await writeFileAtomic(storeFile, parts);
  return parts.reduce((sum, part) => sum + part.length, 0);
}
