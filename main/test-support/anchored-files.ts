import { AnchoredBatch } from '../platform/disk/anchored-batch';
import { createAnchorRoots } from '../platform/disk/anchor-roots';
import type { AnchorRoots } from '../platform/disk/anchor-roots';
import { openDirStrict } from '../platform/disk/anchored-resolve';
import type { AnchoredFiles } from '../platform/disk/anchored-batch';

/**
 * Names files under `rootDir` the way the walk hands them to the workers (for tests of the worker
 * jobs): each by its folder's real name and identity, under the root held open by `roots`.
 */
export function anchoredFilesIn(
  rootDir: string,
  relPaths: readonly string[],
  options: { readonly roots?: AnchorRoots; readonly hardLinks?: 'refuse' | 'allow' } = {},
): AnchoredFiles {
  const roots = options.roots ?? createAnchorRoots();
  const root = roots.get(rootDir);
  if (root === undefined) throw new Error(`${rootDir} is not a folder`);
  const anchor = { mode: roots.anchored.mode, dir: root.dir, hardLinks: options.hardLinks ?? 'refuse' } as const;
  const batch = new AnchoredBatch(() => anchor);
  for (const relPath of relPaths) {
    const slash = relPath.lastIndexOf('/');
    const dirRealRel = slash === -1 ? '' : relPath.slice(0, slash);
    let dirId = { dev: -1, ino: -1 };
    try {
      const held = openDirStrict(roots.anchored, root, dirRealRel, () => false);
      dirId = { dev: held.dir.dev, ino: held.dir.ino };
      held.release();
    } catch {
      // A folder that is not there: its files are simply not found by the worker.
    }
    batch.add({ inPersona: false, dirRealRel, dirId, name: relPath.slice(slash + 1) });
  }
  const files = batch.take();
  if (files === undefined) throw new Error('no files');
  return files;
}
