import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ScratchHome {
  /** A fresh, empty Familiar home. */
  readonly home: string;
  /** A fresh project folder beside it, to open as the workspace. */
  readonly workspace: string;
  /** Deletes both; a file still held open (Windows) is left for the system's temp cleanup. */
  remove(): Promise<void>;
}

/**
 * A throwaway home for runs that must never touch the user's own data (`--smoke-test`): settings,
 * conversations, keys and Electron's profile all land in a new temp folder.
 */
export async function createScratchHome(prefix: string): Promise<ScratchHome> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const home = join(root, 'home');
  const workspace = join(root, 'project');
  await mkdir(home, { mode: 0o700 });
  await mkdir(workspace);
  return {
    home,
    workspace,
    remove: () => rm(root, { recursive: true, force: true, maxRetries: 3, retryDelay: 200 }).catch(() => undefined),
  };
}
