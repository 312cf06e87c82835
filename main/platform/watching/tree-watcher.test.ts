import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test-support/temp-dir';
import { createAnchoredFs } from '../disk/anchored-fs';
import type { DirRef } from '../disk/anchored-fs';
import { TreeWatcher, watcherVouches } from './tree-watcher';

const tempDir = useTempDirs();
const anchored = createAnchoredFs();
const open: { watcher: TreeWatcher; root: DirRef }[] = [];
afterEach(() => {
  for (const { watcher, root } of open.splice(0)) {
    watcher.close();
    anchored.close(root);
  }
});

/** A watcher over `dir` and its folder `src` (as a full walk would set it up), trusted. */
function watched(dir: string): TreeWatcher {
  const watcher = new TreeWatcher(anchored, () => undefined);
  const root = anchored.openRoot(dir);
  open.push({ watcher, root });
  const round = watcher.begin(root);
  round.folder(root, 'src', 'src');
  round.end(true);
  expect(watcher.view()).toBeDefined();
  return watcher;
}

/** Lets the watcher's events land (libuv reads them in its next poll). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  await nextTurn();
}

describe.skipIf(!watcherVouches)('the index change watcher', () => {
  it('marks changed paths dirty, not hidden ones, and a full walk clears what it saw', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'src'));
    const watcher = watched(dir);
    await writeFile(join(dir, 'src/a.ts'), 'x');
    await writeFile(join(dir, '.hidden'), 'x');
    await mkdir(join(dir, 'new'));
    await settle();
    expect([...watcher.view()!.dirty].sort()).toEqual(['new', 'src/a.ts']);
    watcher.mark(['./lib//b.txt', '.']);
    expect(watcher.view()!.dirty.has('lib/b.txt')).toBe(true);
    expect(watcher.view()!.dirty.has('')).toBe(false);
    const root = open[0]!.root;
    const round = watcher.begin(root);
    round.folder(root, 'src', 'src');
    round.end(true);
    expect(watcher.view()!.dirty.size).toBe(0);
  });

  it('stops vouching when .git/info/exclude changes, until a full walk', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'src'));
    await mkdir(join(dir, '.git/info'), { recursive: true });
    const watcher = watched(dir);
    await writeFile(join(dir, '.git/HEAD'), 'ref: refs/heads/main\n'); // not an ignore rule
    await settle();
    expect(watcher.view()).toBeDefined();
    await writeFile(join(dir, '.git/info/exclude'), 'src/\n');
    await settle();
    expect(watcher.view()).toBeUndefined();
    const root = open[0]!.root;
    const round = watcher.begin(root);
    round.folder(root, 'src', 'src');
    round.end(true);
    expect(watcher.view()).toBeDefined();
  });

  it('never trusts a walk that met a folder it could not watch (swapped for a symlink)', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'src'));
    await mkdir(join(dir, 'elsewhere'));
    const watcher = watched(dir);
    await rename(join(dir, 'src'), join(dir, 'old'));
    await symlink(join(dir, 'elsewhere'), join(dir, 'src'));
    const root = open[0]!.root;
    const round = watcher.begin(root);
    round.folder(root, 'src', 'src'); // the walk listed it as a folder; now a link: not followed
    round.end(true);
    expect(watcher.view()).toBeUndefined();
  });
});
