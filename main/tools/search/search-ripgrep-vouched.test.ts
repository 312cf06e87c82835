import { appendFile, link, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NgramIndexes } from '../../domain/search/ngram/ngram-indexes';
import { CTIME_SLACK_MS } from '../../platform/disk/kept-ctime';
import { ripgrepOnPath } from '../../platform/processes/ripgrep-locate';
import { ripgrepCanWalk } from '../../platform/search-engines/ripgrep-walk';
import { watcherVouches } from '../../platform/watching/tree-watcher';
import { searchWith, writeTree } from '../../test-support/search-trees';
import { useTempDirs } from '../../test-support/temp-dir';
import { createToolKit } from '../../test-support/tool-kit';
import type { ToolKit } from '../../test-support/tool-kit';
import type { SearchInCodeOutput } from '../search-in-code';

/**
 * A broad regex in a steady workspace (issue 32): the trigram index gives way to ripgrep's confined
 * walk, and vouches, with the change watcher, for the files it knows unchanged: no confirming walk,
 * and their counts checked by their ctime alone, without a read. A file the watcher heard about, one
 * in UTF-8 with a byte-order mark (which ripgrep reads differently), one concealed since the index
 * was built, and one given a second link from outside, are judged as before. Every answer is a scan's.
 */
const tempDir = useTempDirs();
const rg = ripgrepOnPath();
const walks = rg !== undefined && ripgrepCanWalk();
let kit: ToolKit;
let indexes: NgramIndexes | undefined;
/** The memory switch: off, the files under `private/` are concealed (the index is built with them). */
let memoryOff = false;
beforeEach(async () => {
  memoryOff = false;
  kit = await createToolKit(tempDir, {
    limits: { callsPerMinute: 1_000_000 },
    searchEngine: 'auto',
    // The folder only, as a rule on a folder is: the walk then enters it not, and shows nothing in it.
    isConcealed: (relPath) => memoryOff && relPath === 'private',
  });
});
afterEach(async () => {
  await indexes?.close();
  indexes = undefined;
  await kit.dispose();
});

const search = (args: object, withIndex: boolean): Promise<SearchInCodeOutput> =>
  searchWith(kit, args, (env) =>
    withIndex
      ? { ...env, ngramIndexes: indexes!, searchIndexEnabled: () => true }
      : { ...env, searchIndexEnabled: () => false },
  );

/** The indexed answer without `engine`, `walk` and `index` equals a scan's without the index. */
async function sameAsScan(args: object): Promise<SearchInCodeOutput> {
  const indexed = await search(args, true);
  const { engine: _e, walk: _w, index: _i, ...fromIndex } = indexed;
  const { engine: _f, walk: _x, ...fromScan } = await search(args, false);
  expect(fromIndex).toEqual(fromScan);
  return indexed;
}

/** Lines that pad a file past a kilobyte: with 4,200 files, more bytes than the JS engine reads whole. */
const padding = `${'// filler line without the pattern\n'.repeat(32)}`;

describe.skipIf(!walks || !watcherVouches)('search_in_code: counts the index vouches for', () => {
  it('are checked by their ctime alone; a BOM file, a concealed one and files changed since are judged as before', async () => {
    // More candidates than the index's list is worth looking up one by one (MANY_CANDIDATES).
    const files: Record<string, string> = {};
    for (let i = 0; i < 4200; i += 1)
      files[`m${Math.floor(i / 100)}/f${i}.ts`] = `export function f${i}() {}\n${padding}`;
    // First in the walk's order: what is shown first, were it counted.
    files['private/diary.ts'] = 'export function diary1() {}\n'.repeat(50);
    // Late in the walk's order, so that the first files described are others.
    files['z/bom.ts'] = `\uFEFFexport function bom1() {}\n${padding}`;
    files['z/linked.ts'] = `export function linked1() {}\n${padding}`;
    files['z/shared.ts'] = `export function shared1() {}\n${padding}`;
    await writeTree(kit.workspace, files);
    const written = Date.now();
    indexes = new NgramIndexes(join(kit.home, 'ngram-vouched'), kit.services.workers, {
      racyMs: 0,
      anchored: kit.services.roots.anchored,
    });
    const ngram = indexes.for(kit.env.workspaceRoot);
    ngram.ready(kit.env.sandbox); // memory on: the index holds private/ too
    expect((await ngram.settled()).state).toBe('ready');
    expect(await ngram.watched(kit.env.sandbox)).toBeDefined();
    // A count stands only for a file unchanged since before ripgrep started, less the clock's slack.
    await sleep(Math.max(0, written + CTIME_SLACK_MS + 100 - Date.now()));

    // `^`: ripgrep drops the byte-order mark, the JS engine keeps it (U+FEFF) before `export`.
    const args = { query: '^export function [a-z]+\\d', is_regex: true, max_results: 20 };
    memoryOff = true;
    const checks = vi.spyOn(kit.services.workers, 'checkCounts');
    const reads = vi.spyOn(kit.services.workers, 'searchFiles');
    const steady = await sameAsScan(args);
    expect(steady.engine).toBe('ripgrep');
    expect(steady.walk).toBe('ripgrep');
    expect(steady.total_matches).toBe(4202); // neither bom.ts nor the concealed diary
    expect(steady.results[0]?.file).toBe('m0/f0.ts');
    // The scan read the first bytes of each of its 4,203 files in the file threads; the vouched
    // answer only looked at each file's ctime there (bom.ts, not vouched, was read in this thread).
    checks.mockClear();
    reads.mockClear();
    await search(args, true);
    expect(checks).toHaveBeenCalled();
    for (const [job] of checks.mock.calls) {
      expect(job.judgeBinary).toBe(false);
      expect(job.ctimes?.length).toBe(job.indices.length);
    }
    // Their counts stood: the only file counted again by reading it is bom.ts (the rest of the reads
    // describe the first lines).
    const recounted = reads.mock.calls.filter(([job]) => job.maxDetails === 0).map(([job]) => job.files.names);
    expect(recounted).toEqual([['bom.ts']]);

    // Another program gives shared.ts a second link outside the workspace, writes through it (no
    // workspace folder's watch hears either) a NUL byte that makes it binary, and takes that link
    // away; it puts a second link to an outside file, full of matches, in linked.ts's place (heard).
    const outside = await tempDir();
    await link(join(kit.workspace, 'z', 'shared.ts'), join(outside, 'shared.ts'));
    await appendFile(join(outside, 'shared.ts'), 'export function outside1() {}\n\0');
    await unlink(join(outside, 'shared.ts'));
    await writeFile(join(outside, 'secret.ts'), 'export function secret1() {}\n'.repeat(50));
    await link(join(outside, 'secret.ts'), join(kit.workspace, 'z', 'incoming.ts'));
    await rename(join(kit.workspace, 'z', 'incoming.ts'), join(kit.workspace, 'z', 'linked.ts'));
    // Past the slack: shared.ts's one link and its ctime are old again; only that ctime is not the index's.
    await sleep(CTIME_SLACK_MS + 100);
    const replaced = await sameAsScan(args);
    expect(replaced.total_matches).toBe(4200); // shared.ts binary now, linked.ts refused
    expect(replaced.skipped_binary).toBe(1);
  }, 120_000);
});
