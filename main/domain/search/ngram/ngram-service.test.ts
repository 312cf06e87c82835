import { mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ForegroundGate } from '../../../platform/search-engines/foreground-gate';
import { createNgramExtractor } from '../../../platform/search-engines/ngram-extract';
import { NGRAM_ALWAYS, NGRAM_INDEXED, NGRAM_RACY } from '../../../platform/search-engines/ngram-types';
import { anchoredFilesIn } from '../../../test-support/anchored-files';
import { useTempDirs } from '../../../test-support/temp-dir';
import { createToolKit } from '../../../test-support/tool-kit';
import type { ToolKit } from '../../../test-support/tool-kit';
import { FileVerdict } from './ngram-index';
import type { FileSelector } from './ngram-index';
import { NgramUpkeep } from './ngram-upkeep';
import { NgramIndexes } from './ngram-indexes';
import type { NgramStatus } from './ngram-service';
import { literalPlan } from './trigram-plan';

const tempDir = useTempDirs();
let kit: ToolKit;
beforeAll(async () => {
  kit = await createToolKit(tempDir);
});
afterAll(() => kit?.dispose());

async function tree(files: Record<string, string>) {
  await rm(kit.workspace, { recursive: true, force: true });
  await mkdir(kit.workspace, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(kit.workspace, path, '..'), { recursive: true });
    await writeFile(join(kit.workspace, path), text);
  }
}

/** Builds the workspace's index into `dir`, saves it, and lets it go (the run before a restart). */
async function savedIndexIn(dir: string): Promise<void> {
  const first = new NgramIndexes(dir, kit.services.workers, { racyMs: 0 });
  first.for(kit.env.workspaceRoot).ready(kit.env.sandbox);
  await first.for(kit.env.workspaceRoot).settled();
  await first.close();
}

/** savedIndexIn, then the saved file cut to its first `keep(length)` bytes (damaged). */
async function truncatedIndexIn(dir: string, keep: (length: number) => number): Promise<void> {
  await savedIndexIn(dir);
  const [name] = await readdir(dir);
  const file = join(dir, name!);
  const bytes = await readFile(file);
  await writeFile(file, bytes.subarray(0, keep(bytes.length)));
}

describe('the trigram index of a workspace', () => {
  it('takes no file to index again once it is closed (a query answered late)', async () => {
    await tree({ 'a.txt': 'alpha beta\n' });
    const indexes = new NgramIndexes(join(kit.home, 'ngram-closed'), kit.services.workers, { racyMs: 0 });
    const workspace = indexes.for(kit.env.workspaceRoot);
    workspace.ready(kit.env.sandbox);
    await workspace.settled();
    const handedOn = vi.spyOn(NgramUpkeep.prototype, 'reindex');
    const entry = { relPath: 'a.txt', inPersona: false, dirRealRel: '', dirId: { dev: 0, ino: 0 }, name: 'a.txt' };
    try {
      workspace.reindex(kit.env.sandbox, [entry]);
      expect(handedOn).toHaveBeenCalledTimes(1); // open: handed on to be indexed again
      await indexes.close();
      workspace.reindex(kit.env.sandbox, [entry]);
      expect(handedOn).toHaveBeenCalledTimes(1);
    } finally {
      handedOn.mockRestore();
    }
  });

  it('builds in the background with progress, saves itself, and is reopened without a rebuild', async () => {
    await tree({ 'a.txt': 'alpha beta\n', 'src/b.ts': 'gamma delta\n', 'server.key': 'SECRET_TOKEN=1\n' });
    const dir = join(kit.home, 'ngram-persist');
    // Each time an index becomes ready (built, loaded), its build's garbage may be collected.
    const onReady = vi.fn();
    // And while one builds or loads, nobody collects: it says when it starts and ends.
    const onWorking = vi.fn();
    const first = new NgramIndexes(dir, kit.services.workers, { racyMs: 0, onReady, onWorking });
    const workspace = first.for(kit.env.workspaceRoot);
    const seen: NgramStatus[] = [];
    workspace.onStatus((status) => seen.push(status));
    expect(workspace.ready(kit.env.sandbox)).toBeUndefined(); // building: queries scan meanwhile
    const built = await workspace.settled();
    expect(built).toMatchObject({ state: 'ready', files: 2, walked: 2 });
    expect(built.diskBytes).toBeGreaterThan(0);
    expect(seen.map((status) => status.state)).toContain('building');
    expect(onReady).toHaveBeenCalledTimes(1);
    expect(onWorking.mock.calls).toEqual([
      [kit.env.workspaceRoot, true],
      [kit.env.workspaceRoot, false],
    ]);
    const index = workspace.ready(kit.env.sandbox)!;
    // Saved, the index answers from the file like a reopened one: a query prepares its lists.
    await index.prepare(literalPlan('gamma', false));
    const select = index.selector(literalPlan('gamma', false));
    expect(select.share).toBe(0.5);
    await first.close();

    // Reopened: loaded from the data folder, not built (no build time), same answers.
    const again = new NgramIndexes(dir, kit.services.workers, { racyMs: 0, onReady, onWorking });
    const reopened = again.for(kit.env.workspaceRoot);
    reopened.ready(kit.env.sandbox);
    const loaded = await reopened.settled();
    expect(onReady).toHaveBeenCalledTimes(2);
    expect(onWorking.mock.calls.slice(2)).toEqual([
      [kit.env.workspaceRoot, true],
      [kit.env.workspaceRoot, false],
    ]);
    expect(loaded).toMatchObject({ state: 'ready', files: 2 });
    expect(loaded.buildMs).toBeUndefined();
    await reopened.ready(kit.env.sandbox)!.prepare(literalPlan('gamma', false));
    expect(reopened.ready(kit.env.sandbox)!.selector(literalPlan('gamma', false)).share).toBe(0.5);
    // The deny-list holds: server.key (a key file) was never read into the index.
    await reopened.ready(kit.env.sandbox)!.prepare(literalPlan('SECRET_TOKEN', false));
    expect(reopened.ready(kit.env.sandbox)!.selector(literalPlan('SECRET_TOKEN', false)).share).toBe(0);
    await again.close();
  });

  it('rebuilds when the saved file belongs to another format or is damaged', async () => {
    await tree({ 'a.txt': 'alpha\n' });
    const dir = join(kit.home, 'ngram-damaged');
    await truncatedIndexIn(dir, (length) => length - 3);
    const again = new NgramIndexes(dir, kit.services.workers, { racyMs: 0 });
    again.for(kit.env.workspaceRoot).ready(kit.env.sandbox);
    const status = await again.for(kit.env.workspaceRoot).settled();
    expect(status).toMatchObject({ state: 'ready', files: 1 });
    expect(status.buildMs).toBeGreaterThanOrEqual(0); // built again
    await again.close();
  });

  it('never follows a symlink swapped in for an indexed file: outside content stays out', async () => {
    await tree({ 'a.txt': 'inside text\n' });
    const outside = join(kit.home, 'outside.txt');
    await writeFile(outside, 'OUTSIDE_SECRET_CONTENT\n');
    const files = anchoredFilesIn(kit.workspace, ['a.txt']);
    // The walk named a.txt; before the worker reads it, it becomes a symlink to a file outside.
    await rm(join(kit.workspace, 'a.txt'));
    await symlink(outside, join(kit.workspace, 'a.txt'));
    const segment = createNgramExtractor()(files, 0);
    expect(segment.flags[0]).toBe(NGRAM_ALWAYS); // not read: every query looks at it again
    expect(segment.keys.length).toBe(0);
  });

  it('marks a file written moments before it was read as racy: every query checks it again', async () => {
    await tree({ 'a.txt': 'fresh text\n' });
    const files = anchoredFilesIn(kit.workspace, ['a.txt']);
    expect(createNgramExtractor()(files, 60_000).flags[0]).toBe(NGRAM_RACY);
    expect(createNgramExtractor()(files, 0).flags[0]).toBe(NGRAM_INDEXED);
  });

  it('calls a racy or changed file stale, an unchanged one without the trigrams skipped', async () => {
    await tree({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
    const dir = join(kit.home, 'ngram-verdicts');
    const indexes = new NgramIndexes(dir, kit.services.workers, { racyMs: 0 });
    const workspace = indexes.for(kit.env.workspaceRoot);
    workspace.ready(kit.env.sandbox);
    await workspace.settled();
    const index = workspace.ready(kit.env.sandbox)!;
    await index.prepare(literalPlan('alpha', true));
    const select = index.selector(literalPlan('alpha', true));
    const facts = async (name: string) => {
      const resolved = await kit.env.sandbox.resolve(name, 'read');
      if (!resolved.ok || resolved.value.facts === undefined) throw new Error('no facts');
      return resolved.value.facts;
    };
    const a = await facts('a.txt');
    const b = await facts('b.txt');
    expect(select('a.txt', a.size, a.ctimeMs)).toBe(FileVerdict.Search);
    expect(select('b.txt', b.size, b.ctimeMs)).toBe(FileVerdict.Skip);
    expect(select('b.txt', b.size + 1, b.ctimeMs)).toBe(FileVerdict.Stale);
    expect(select('b.txt', b.size, b.ctimeMs + 1)).toBe(FileVerdict.Stale);
    expect(select('new.txt', 1, 1)).toBe(FileVerdict.Stale);
    await indexes.close();
  });

  it('waits while a tool call runs: the build neither walks nor reads until the call is over (issue 32 item 1)', async () => {
    await tree({ 'a.txt': 'alpha\n', 'src/b.ts': 'beta\n', 'src/c.ts': 'gamma\n' });
    const gate = new ForegroundGate();
    const indexFiles = vi.spyOn(kit.services.workers, 'indexFiles');
    const indexes = new NgramIndexes(join(kit.home, 'ngram-foreground'), kit.services.workers, {
      racyMs: 0,
      foreground: gate,
    });
    const workspace = indexes.for(kit.env.workspaceRoot);
    const release = gate.enter(); // a search_in_code call runs (it asked for the index: a build starts)
    expect(workspace.ready(kit.env.sandbox)).toBeUndefined();
    expect(await workspace.answering(kit.env.sandbox)).toBeUndefined(); // the query scans, now
    while (gate.waiting === 0) await nextTurn(); // the build has reached its first step
    expect(workspace.status()).toMatchObject({ state: 'building', walked: 0, files: 0 });
    expect(indexFiles).not.toHaveBeenCalled();
    release();
    expect(await workspace.settled()).toMatchObject({ state: 'ready', files: 3, walked: 3 });
    expect(indexFiles).toHaveBeenCalled();
    indexFiles.mockRestore();
    await indexes.close();
  });

  it('answers a query from a reopened index at once, before any posting list is decoded (issue 32 item 2)', async () => {
    await tree({ 'a.txt': 'alpha\n', 'src/b.ts': 'beta\n' });
    const dir = join(kit.home, 'ngram-reopen-at-once');
    await savedIndexIn(dir);
    const again = new NgramIndexes(dir, kit.services.workers, { racyMs: 0, foreground: new ForegroundGate() });
    const reopened = again.for(kit.env.workspaceRoot);
    // The first query of the new run waits for the load (headers only), not for a build or a walk.
    const index = await reopened.answering(kit.env.sandbox);
    expect(index).toBeDefined();
    expect(index!.files).toBe(2);
    expect(index!.decodedSegments).toBe(0);
    // Its posting lists are still on disk: unread, a segment's files may all match (never a missed
    // match); prepare reads the lists the plan needs.
    const plan = literalPlan('beta', false);
    expect(index!.selector(plan).share).toBe(1);
    await index!.prepare(plan);
    expect(index!.selector(plan).share).toBe(0.5);
    expect(index!.decodedSegments).toBe(1);
    await again.close();
  });
  it('opens a saved index as its workspace opens, before any query, and refreshes it until the watcher vouches; builds none where nothing is saved', async () => {
    await tree({ 'a.txt': 'alpha\n', 'src/b.ts': 'beta\n' });
    const dir = join(kit.home, 'ngram-open-saved');
    await savedIndexIn(dir);
    const later = new NgramIndexes(dir, kit.services.workers, { racyMs: 0, anchored: kit.services.roots.anchored });
    later.openSaved(kit.env.workspaceRoot, kit.env.sandbox);
    const opened = later.for(kit.env.workspaceRoot);
    expect(opened.status().state).toBe('loading');
    expect(await opened.settled()).toMatchObject({ state: 'ready', files: 2 });
    // The refresh after the open has run: a query answers from the index without a walk.
    expect(await opened.watched(kit.env.sandbox)).toBeDefined();
    await later.close();

    // A workspace never searched: nothing is built until a search asks.
    const fresh = new NgramIndexes(join(kit.home, 'ngram-open-nothing'), kit.services.workers, { racyMs: 0 });
    fresh.openSaved(kit.env.workspaceRoot, kit.env.sandbox);
    expect(fresh.for(kit.env.workspaceRoot).status().state).toBe('idle');
    await fresh.close();

    // Closed (the app ending): a late open opens nothing.
    const closed = new NgramIndexes(dir, kit.services.workers, { racyMs: 0 });
    await closed.close();
    closed.openSaved(kit.env.workspaceRoot, kit.env.sandbox);
    expect(closed.for(kit.env.workspaceRoot).status().state).toBe('idle');
  });

  it('builds nothing when the saved index it opens with the workspace cannot be used, until a query asks', async () => {
    await tree({ 'a.txt': 'alpha\n' });
    const dir = join(kit.home, 'ngram-open-damaged');
    await truncatedIndexIn(dir, () => 40); // another run's format, say
    const again = new NgramIndexes(dir, kit.services.workers, { racyMs: 0 });
    const workspace = again.for(kit.env.workspaceRoot);
    again.openSaved(kit.env.workspaceRoot, kit.env.sandbox);
    expect(workspace.status().state).toBe('loading');
    expect(await workspace.settled()).toMatchObject({ state: 'idle', files: 0 });
    // The first query builds it, as in a workspace never searched.
    expect(workspace.ready(kit.env.sandbox)).toBeUndefined();
    expect(await workspace.settled()).toMatchObject({ state: 'ready', files: 1 });
    await again.close();
  });

  it('reads a saved index once the calls end when the query that asked does not wait for it; at once when one does', async () => {
    await tree({ 'a.txt': 'alpha\n', 'src/b.ts': 'beta\n' });
    const dir = join(kit.home, 'ngram-reopen-after-calls');
    await savedIndexIn(dir);

    // A search that walks with ripgrep asks without waiting (the first search after a restart):
    // the read waits for the calls to end instead of sharing the cores with that search.
    const gate = new ForegroundGate();
    const later = new NgramIndexes(dir, kit.services.workers, { racyMs: 0, foreground: gate });
    const reopened = later.for(kit.env.workspaceRoot);
    const release = gate.enter();
    expect(reopened.ready(kit.env.sandbox)).toBeUndefined();
    while (gate.waiting === 0) await nextTurn();
    expect(reopened.status().state).toBe('loading');
    release();
    expect(await reopened.settled()).toMatchObject({ state: 'ready', files: 2 });
    await later.close();

    // Nothing saved (a new workspace): 'building' while the call still runs, not 'loading' until it ends.
    const fresh = new NgramIndexes(join(kit.home, 'ngram-nothing-saved'), kit.services.workers, {
      racyMs: 0,
      foreground: gate,
    });
    const during = gate.enter();
    try {
      expect(fresh.for(kit.env.workspaceRoot).ready(kit.env.sandbox)).toBeUndefined();
      await vi.waitFor(() => expect(fresh.for(kit.env.workspaceRoot).status().state).toBe('building'));
    } finally {
      during();
    }
    await fresh.close();

    // A query that waits for it (no ripgrep walk) has it read now, the call still running.
    const waiting = new NgramIndexes(dir, kit.services.workers, { racyMs: 0, foreground: gate });
    const asked = waiting.for(kit.env.workspaceRoot);
    const call = gate.enter();
    try {
      expect(asked.ready(kit.env.sandbox)).toBeUndefined();
      while (gate.waiting === 0) await nextTurn();
      const index = await asked.answering(kit.env.sandbox);
      expect(index?.files).toBe(2);
    } finally {
      call();
    }
    await waiting.close();
  });

  it('lets go of the built postings once saved and answers the same from the file (issue 32 item 7)', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i += 1) {
      files[`src/f${i}.ts`] =
        `export const value${i} = ${i % 3 === 0 ? 'alpha' : 'beta'}_${i % 5 === 0 ? 'gamma' : 'delta'};\n`;
    }
    await tree(files);
    const dir = join(kit.home, 'ngram-on-disk');
    const indexes = new NgramIndexes(dir, kit.services.workers, { racyMs: 0 });
    const workspace = indexes.for(kit.env.workspaceRoot);
    const plans = [
      literalPlan('alpha', false),
      literalPlan('gamma', true),
      literalPlan('beta_delta', false),
      literalPlan('value3', true),
      literalPlan('nowhere at all', false),
    ];
    // The answers of the built index while its postings are in memory (before it is saved)...
    const answers: number[][] = [];
    const unsubscribe = workspace.onStatus((status) => {
      if (status.state !== 'ready' || answers.length > 0) return;
      const built = workspace.ready(kit.env.sandbox)!;
      expect(built.memoryBytes).toBeGreaterThan(status.files * 17); // postings in the heap
      for (const plan of plans) answers.push(verdicts(built.selector(plan)));
    });
    workspace.ready(kit.env.sandbox);
    const status = await workspace.settled();
    unsubscribe();
    expect(status.diskBytes).toBeGreaterThan(0);
    expect(answers).toHaveLength(plans.length);
    // ...and after the save, from the file: the same, the postings no longer in memory.
    const saved = workspace.ready(kit.env.sandbox)!;
    expect(saved.memoryBytes).toBeLessThan(status.memoryBytes + 1);
    expect(saved.postingsInMemory).toBe(0);
    for (const [i, plan] of plans.entries()) {
      await saved.prepare(plan);
      expect([i, verdicts(saved.selector(plan))]).toEqual([i, answers[i]]);
    }
    await indexes.close();

    function verdicts(select: FileSelector): number[] {
      return Object.keys(files).map((path) => select.known(path));
    }
  });
});
