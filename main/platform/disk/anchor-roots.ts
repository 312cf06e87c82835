import { resolve } from 'node:path';
import { createAnchoredFs } from './anchored-fs';
import type { AnchoredFs } from './anchored-fs';
import type { AnchorRoot } from './anchored-resolve';

/**
 * The workspace and persona folders, each opened ONCE as a directory descriptor and kept: every
 * later lookup starts from that descriptor, so replacing the folder's path (or a parent of it) with
 * a symlink after it was opened changes nothing. Closed when the app stops using the folder.
 */
export interface AnchorRoots {
  readonly anchored: AnchoredFs;
  /** The root of an absolute folder, opened on first use; undefined while the folder does not exist. */
  get(path: string): AnchorRoot | undefined;
  closeAll(): void;
}

/**
 * Folders kept open at once. A root is never closed while the app may still use it (a search in a
 * worker thread holds its descriptor number): only the least recently used beyond this many go.
 */
const maxOpenRoots = 16;

export function createAnchorRoots(anchored: AnchoredFs = createAnchoredFs()): AnchorRoots {
  const open = new Map<string, AnchorRoot>();

  const stillThere = (root: AnchorRoot): boolean => {
    try {
      // A deleted folder keeps its descriptor valid but has no links left: open the new one instead.
      return anchored.stat(root.dir).nlink > 0;
    } catch {
      return false;
    }
  };

  return {
    anchored,
    get(path) {
      const key = resolve(path);
      const held = open.get(key);
      if (held !== undefined) {
        open.delete(key);
        if (stillThere(held)) {
          open.set(key, held);
          return held;
        }
        try {
          anchored.close(held.dir);
        } catch {
          // Already closed by the OS view of things: nothing to release.
        }
      }
      try {
        const dir = anchored.openRoot(key);
        const root: AnchorRoot = { dir, spellings: key === dir.path ? [dir.path] : [dir.path, key] };
        open.set(key, root);
        if (open.size > maxOpenRoots) {
          const [oldest, evicted] = open.entries().next().value!;
          open.delete(oldest);
          anchored.close(evicted.dir);
        }
        return root;
      } catch {
        return undefined;
      }
    },
    closeAll() {
      for (const root of open.values()) anchored.close(root.dir);
      open.clear();
    },
  };
}
