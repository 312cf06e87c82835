import * as fs from 'node:fs';

/**
 * Descriptors this process may hold at once in its busiest moment: a literal's 1,024 candidates
 * the confirming walk holds open (search-ripgrep-walk.ts maxOpened), and the app's own.
 */
export const DESCRIPTORS_AHEAD = 1100;

/** What the open-file limit must leave free beyond those, for the moment they are all open. */
const LIMIT_MARGIN = 1024;

/** The soft open-file limit (Linux: /proc/self/limits), or undefined when it cannot be read. */
export function openFileLimit(): number | undefined {
  try {
    const line = fs
      .readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((row) => row.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    if (soft === 'unlimited') return Number.POSITIVE_INFINITY;
    const value = Number(soft);
    return Number.isInteger(value) && value > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Grows this process's descriptor table ahead of need. Linux doubles the table when a descriptor
 * number passes its size (64, 128, 256, 512...), and in a process with threads each growth waits for
 * an RCU grace period first: 5-13 ms here, the thread that opened the file stalled meanwhile. A fresh
 * server, which holds more than 128 already, paid one in its first search's walk holding 297
 * candidates open (an open of 8 ms at descriptor 256), and would pay three holding 1,024. Opening
 * descriptors up to `upTo` once, in a file thread as the app starts (fs-worker-pool.ts warm), pays
 * them there; the table never shrinks. Linux only, and only where the open-file limit leaves ample
 * room: the descriptors are all held for a moment. Returns the highest descriptor it opened (-1: none).
 */
export function presizeDescriptorTable(upTo = DESCRIPTORS_AHEAD, limit = openFileLimit()): number {
  if (process.platform !== 'linux' || limit === undefined || limit < upTo + LIMIT_MARGIN) return -1;
  const opened: number[] = [];
  let highest = -1;
  try {
    while (highest < upTo) {
      highest = fs.openSync('/dev/null', 'r');
      opened.push(highest);
    }
  } catch {
    // Out of descriptors after all (another thread took many meanwhile): as far as it got.
  } finally {
    for (const fd of opened) fs.closeSync(fd);
  }
  return highest;
}
