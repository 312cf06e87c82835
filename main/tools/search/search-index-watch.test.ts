import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync } from 'node:fs';
import { appendFile, mkdir, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NgramIndexes } from '../../domain/search/ngram/ngram-indexes';
import { watcherVouches } from '../../platform/watching/tree-watcher';
import type { WorkspaceNgram } from '../../domain/search/ngram/ngram-service';
import { searchWith, writeTree } from '../../test-support/search-trees';
import { useTempDirs } from '../../test-support/temp-dir';
import { createToolKit } from '../../test-support/tool-kit';
import type { ToolKit } from '../../test-support/tool-kit';
import type { SearchInCodeOutput } from '../search-in-code';

/**
 * The watcher-trusted path of search_in_code's index (issue 16 item 4): no walk, the index's file
 * list plus what the change watcher heard. A change by another program (plain fs calls here) is
 * found by the very next query; an ignore-rule change or a flood sends queries back to the walk.
 * Every answer is compared with a scan's.
 */
const tempDir = useTempDirs();
let kit: ToolKit;
let runs = 0;
let indexes: NgramIndexes | undefined;
// The temporary folders go after each test: a kit per test.
beforeEach(async () => {
  kit = await createToolKit(tempDir, { limits: { callsPerMinute: 1_000_000 }, searchEngine: 'js' });
});
afterEach(async () => {
  await indexes?.close();
  indexes = undefined;
  await kit.dispose();
});

const tree = (files: Record<string, string>) => writeTree(kit.workspace, files);

/** A fresh index of the tree as it is now, watched, ready and trusted. */
async function watchedIndex(catchUpMs?: number): Promise<WorkspaceNgram> {
  runs += 1;
  indexes = new NgramIndexes(join(kit.home, `ngram-watch-${runs}`), kit.services.workers, {
    racyMs: 0,
    anchored: kit.services.roots.anchored,
    ...(catchUpMs === undefined ? {} : { catchUpMs }),
  });
  const ngram = indexes.for(kit.env.workspaceRoot);
  ngram.ready(kit.env.sandbox);
  expect((await ngram.settled()).state).toBe('ready');
  expect(await ngram.watched(kit.env.sandbox)).toBeDefined();
  return ngram;
}

const search = (args: object, withIndex: boolean): Promise<SearchInCodeOutput> =>
  searchWith(kit, args, (env) =>
    withIndex
      ? { ...env, ngramIndexes: indexes!, searchIndexEnabled: () => true }
      : { ...env, searchIndexEnabled: () => false },
  );

/**
 * The indexed answer (taken without a walk when `fast`, with one otherwise) equals a scan's.
 * The result says which: `walk: 'index'` only where the index's list stood in for the walk.
 */
async function sameAsScan(args: object, fast: boolean): Promise<SearchInCodeOutput> {
  const indexed = await search(args, true);
  expect(indexed.walk).toBe(fast ? 'index' : undefined);
  const scanned = await search(args, false);
  expect(indexed.engine).toBe('index');
  const { engine: _i, index: _s, walk: _w, ...fromIndex } = indexed;
  const { engine: _j, ...fromScan } = scanned;
  expect(fromIndex).toEqual(fromScan);
  return indexed;
}

const files = {
  'a.txt': 'alpha beta\n',
  'src/b.ts': 'gamma delta\n',
  'src/deep/c.md': 'epsilon\n',
  'lib/d.js': 'zeta eta theta\n',
  'build/out.txt': 'gamma ignored\n',
};

// Linux only: elsewhere there is no watcher, and every query walks (search-index.test.ts).
describe.skipIf(!watcherVouches)('search_in_code with the watched trigram index', () => {
  it('finds a file another program changed right before the query, 50 times over', async () => {
    await tree(files);
    await watchedIndex();
    for (let i = 0; i < 50; i += 1) {
      const token = `fresh${i}token`;
      // Alternately a rewrite in place and an append, with no pause before the query.
      if (i % 2 === 0) await writeFile(join(kit.workspace, 'src/b.ts'), `gamma ${token}\n`);
      else await appendFile(join(kit.workspace, 'src/deep/c.md'), `${token}\n`);
      const found = await sameAsScan({ query: token }, true);
      expect(found.total_matches).toBe(1);
      expect(found.results[0]!.file).toBe(i % 2 === 0 ? 'src/b.ts' : 'src/deep/c.md');
    }
  }, 60_000);

  it('has heard, when a query starts, a write another process finished before it', async () => {
    await tree(files);
    const ngram = await watchedIndex();
    for (let i = 0; i < 10; i += 1) {
      const file = join(kit.workspace, `src/n${i}.txt`);
      const child = spawn(process.execPath, ['-e', `require('fs').writeFileSync(${JSON.stringify(file)}, 'x')`]);
      await once(child, 'exit');
      // Straight from the callback that reported the exit: the watcher's event may still wait in the
      // same poll; watched() lets it land first.
      const view = await ngram.watched(kit.env.sandbox);
      // Heard: still dirty, or already indexed by the catch-up that hearing it started.
      const heard = view?.dirty.has(`src/n${i}.txt`) === true || ngram.indexedPaths().includes(`src/n${i}.txt`);
      expect(heard).toBe(true);
    }
    await sameAsScan({ query: 'x' }, true);
  }, 60_000);

  it('finds a file in a folder created right before the query, and forgets deleted files and folders', async () => {
    await tree(files);
    await watchedIndex();
    await mkdir(join(kit.workspace, 'new/inner'), { recursive: true });
    await writeFile(join(kit.workspace, 'new/inner/e.txt'), 'brandnew words\n');
    const found = await sameAsScan({ query: 'brandnew' }, true);
    expect(found.results.map((hit) => hit.file)).toEqual(['new/inner/e.txt']);
    // Another file in the new folder (not watched yet): the folder is still looked at whole.
    await writeFile(join(kit.workspace, 'new/inner/f.txt'), 'brandnew again\n');
    expect((await sameAsScan({ query: 'brandnew' }, true)).total_matches).toBe(2);

    await unlink(join(kit.workspace, 'lib/d.js'));
    const gone = await sameAsScan({ query: 'theta' }, true);
    expect(gone.total_matches).toBe(0);
    // A folder moved away: only its parent hears of it, nothing inside does.
    await rename(join(kit.workspace, 'src/deep'), join(kit.workspace, 'moved'));
    const moved = await sameAsScan({ query: 'epsilon' }, true);
    expect(moved.results.map((hit) => hit.file)).toEqual(['moved/c.md']);
    await rm(join(kit.workspace, 'src'), { recursive: true });
    const folderGone = await sameAsScan({ query: 'gamma' }, true);
    expect(folderGone.total_matches).toBe(0);
    expect(folderGone.searched_files).toBe(4); // a.txt, moved/c.md, new/inner/e.txt and f.txt
  });

  it('catches up with what the watcher heard without walking: changed, new and deleted files (issue 32 item 3)', async () => {
    await tree(files);
    const ngram = await watchedIndex(600_000); // the catch-up runs when this test says
    await appendFile(join(kit.workspace, 'a.txt'), 'omega\n');
    await writeFile(join(kit.workspace, 'src/new.txt'), 'omega too\n');
    await unlink(join(kit.workspace, 'lib/d.js'));
    const heard = await ngram.watched(kit.env.sandbox);
    expect([...(heard?.dirty ?? [])].sort()).toEqual(['a.txt', 'lib/d.js', 'src/new.txt']);
    const walk = vi.spyOn(kit.env.sandbox, 'walk');
    await ngram.catchUp();
    expect(walk).not.toHaveBeenCalled();
    walk.mockRestore();
    // Clean again, still trusted, and the index itself now knows the new text.
    expect((await ngram.watched(kit.env.sandbox))?.dirty.size).toBe(0);
    expect(ngram.indexedPaths()).toContain('src/new.txt');
    expect(ngram.indexedPaths()).not.toContain('lib/d.js');
    const found = await sameAsScan({ query: 'omega' }, true);
    expect(found.results.map((hit) => hit.file)).toEqual(['a.txt', 'src/new.txt']);
    expect(found.index?.candidates).toBe(2);
  });

  it('walks again after a .gitignore change, with the answers a scan gives', async () => {
    await tree(files);
    const ngram = await watchedIndex();
    await writeFile(join(kit.workspace, '.gitignore'), 'build/\nsrc/\n');
    expect(await ngram.watched(kit.env.sandbox)).toBeUndefined();
    const after = await sameAsScan({ query: 'gamma' }, false);
    expect(after.total_matches).toBe(0);
    await writeFile(join(kit.workspace, '.gitignore'), 'src/deep/\n');
    const unignored = await sameAsScan({ query: 'gamma' }, false);
    expect(unignored.results.map((hit) => hit.file)).toEqual(['build/out.txt', 'src/b.ts']);
  });

  it('stops vouching for the index after a flood of events', async () => {
    await tree(files);
    const ngram = await watchedIndex();
    // Many events on two files (a dirty set that stays small): only the flood rule can tell. The
    // kernel merges an event identical to the one before it, so the writes alternate.
    for (let i = 0; i < 1200; i += 1) appendFileSync(join(kit.workspace, i % 2 ? 'a.txt' : 'z.txt'), `line ${i}\n`);
    expect(await ngram.watched(kit.env.sandbox)).toBeUndefined();
    await sameAsScan({ query: 'line 1199' }, false);
  });
});
