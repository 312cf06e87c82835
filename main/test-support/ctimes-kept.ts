import { closeSync, constants, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { keepsCtime } from '../platform/disk/kept-ctime';

/** Does the temp folders' file system keep ctimes a change cannot escape (kept-ctime.ts)? */
export function ctimesKeptHere(): boolean {
  const fd = openSync(tmpdir(), constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    return keepsCtime(fd);
  } finally {
    closeSync(fd);
  }
}
