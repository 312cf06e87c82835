import { lstat } from 'node:fs/promises';

/** Whether something is at `path`, a dangling symlink included (lstat: the name itself, not its target). */
export const pathExists = (path: string): Promise<boolean> =>
  lstat(path).then(
    () => true,
    () => false,
  );
