/**
 * Serializes mutations per real path: two writes to one file never interleave their
 * check-then-write steps (pi-mono keeps the same per-path queue). Keys are released when idle.
 */
export interface PathLocks {
  withLock<T>(paths: readonly string[], work: () => Promise<T>): Promise<T>;
}

export function createPathLocks(): PathLocks {
  const tails = new Map<string, Promise<void>>();
  return {
    async withLock(paths, work) {
      // A fixed order avoids deadlock when two calls lock the same pair (move a→b and b→a).
      const keys = [...new Set(paths)].sort();
      const previous = keys.map((key) => tails.get(key) ?? Promise.resolve());
      let release = () => {};
      const mine = new Promise<void>((resolve) => (release = resolve));
      for (const key of keys) tails.set(key, mine);
      await Promise.all(previous);
      try {
        return await work();
      } finally {
        release();
        for (const key of keys) if (tails.get(key) === mine) tails.delete(key);
      }
    },
  };
}
