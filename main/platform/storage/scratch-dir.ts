import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A private folder (0700, from mkdtemp) in the system temp folder for the length of `use`, removed
 * afterwards whatever happens: for files a child process needs that belong to no workspace (git's
 * index for a commit built beside the user's own).
 */
export async function withScratchDir<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'familiar-'));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
