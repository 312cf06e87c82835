import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NgramIndexes } from '../../domain/search/ngram/ngram-indexes';
import { ripgrepOnPath } from '../../platform/processes/ripgrep-locate';
import { ripgrepCanWalk } from '../../platform/search-engines/ripgrep-walk';
import { watcherVouches } from '../../platform/watching/tree-watcher';
import { searchWith, writeTree } from '../../test-support/search-trees';
import { useTempDirs } from '../../test-support/temp-dir';
import { createToolKit } from '../../test-support/tool-kit';
import type { ToolKit } from '../../test-support/tool-kit';
import type { SearchInCodeOutput } from '../search-in-code';

/**
 * Where ripgrep walks the folders itself, confined (issue 28 item 4), the trigram index answers only
 * where it saves that walk (issue 32): a saved index just opened after a restart, which its watcher
 * does not vouch for yet, and a pattern with many candidates leave the search to ripgrep's walk,
 * whose answer is the scan's. Each answer is compared with a scan without the index.
 */
const tempDir = useTempDirs();
const rg = ripgrepOnPath();
const walks = rg !== undefined && ripgrepCanWalk();
let kit: ToolKit;
const opened: NgramIndexes[] = [];
beforeEach(async () => {
  kit = await createToolKit(tempDir, { limits: { callsPerMinute: 1_000_000 }, searchEngine: 'auto' });
});
afterEach(async () => {
  for (const indexes of opened.splice(0)) await indexes.close();
  await kit.dispose();
});

/** An index of the workspace in `dir`, as a run of the app opens it (with its change watcher). */
function open(dir: string): NgramIndexes {
  const indexes = new NgramIndexes(dir, kit.services.workers, { racyMs: 0, anchored: kit.services.roots.anchored });
  opened.push(indexes);
  return indexes;
}

const search = (args: object, indexes?: NgramIndexes): Promise<SearchInCodeOutput> =>
  searchWith(kit, args, (env) =>
    indexes === undefined
      ? { ...env, searchIndexEnabled: () => false }
      : { ...env, ngramIndexes: indexes, searchIndexEnabled: () => true },
  );

/** The indexed answer without `engine`, `walk` and `index` equals a scan's. */
async function sameAsScan(args: object, indexes: NgramIndexes): Promise<SearchInCodeOutput> {
  const indexed = await search(args, indexes);
  const { engine: _e, walk: _w, index: _i, ...fromIndex } = indexed;
  const { engine: _f, walk: _x, ...fromScan } = await search(args);
  expect(fromIndex).toEqual(fromScan);
  return indexed;
}

describe.skipIf(!walks)(
  'search_in_code with ripgrep’s confined walk: where the index gives way, how candidates are read',
  () => {
    it('after a restart, finds a file edited while the app was off under its new text, not its old', async () => {
      await writeTree(kit.workspace, {
        'notes/a.txt': 'before the edit: walnut\n',
        'notes/b.txt': 'unchanged: walnut tree\n',
        'src/c.ts': 'const other = 1;\n',
      });
      const dir = join(kit.home, 'ngram-restart');
      const first = open(dir);
      first.for(kit.env.workspaceRoot).ready(kit.env.sandbox);
      expect((await first.for(kit.env.workspaceRoot).settled()).state).toBe('ready');
      await first.close();

      // The app is off: another program rewrites a file (same length, so only its time tells).
      await writeFile(join(kit.workspace, 'notes/a.txt'), 'after  the edit: hazel!\n');
      const again = open(dir);
      const fresh = await sameAsScan({ query: 'hazel' }, again);
      // No watcher vouches for a saved index just opened: ripgrep walked instead, without waiting for it.
      expect(['loading', 'ready']).toContain(fresh.index?.state);
      expect(fresh.index?.candidates).toBeUndefined();
      expect(fresh.engine).toBe('ripgrep');
      expect(fresh.walk).toBe('ripgrep');
      expect(fresh.results.map((hit) => `${hit.file}:${hit.text}`)).toEqual(['notes/a.txt:after  the edit: hazel!']);
      const old = await sameAsScan({ query: 'walnut' }, again);
      expect(old.results.map((hit) => hit.file)).toEqual(['notes/b.txt']);
      expect(old.total_matches).toBe(1);

      // Once the refresh has run and the watcher vouches, a selective query is the index's again.
      expect((await again.for(kit.env.workspaceRoot).settled()).state).toBe('ready');
      if (watcherVouches) {
        const indexed = await sameAsScan({ query: 'hazel' }, again);
        expect(indexed.engine).toBe('index');
        expect(indexed.index?.candidates).toBe(1);
      }
    });

    it('reads a literal’s few candidates in this thread, a regex’s in the worker threads', async () => {
      await writeTree(kit.workspace, { 'a.txt': 'plain cedar\n', 'b/c.txt': 'cedar again\n', 'd.txt': 'none\n' });
      const workers = vi.spyOn(kit.services.workers, 'searchFiles');
      const literal = await search({ query: 'cedar' });
      expect(literal.walk).toBe('ripgrep');
      expect(literal.results.map((hit) => hit.file)).toEqual(['a.txt', 'b/c.txt']);
      expect(workers).not.toHaveBeenCalled();
      const regex = await search({ query: 'ced[a]r', is_regex: true });
      expect(regex.walk).toBe('ripgrep');
      expect(regex.results.map((hit) => hit.file)).toEqual(['a.txt', 'b/c.txt']);
      expect(workers).toHaveBeenCalled();
    });

    it.skipIf(!watcherVouches)(
      'hands a pattern with thousands of candidates to ripgrep’s walk',
      async () => {
        // More candidates than the index's list is worth looking up one by one (MANY_CANDIDATES).
        const files: Record<string, string> = {};
        for (let i = 0; i < 4200; i += 1) {
          files[`m${Math.floor(i / 100)}/f${i}.ts`] = `export function handler${i}() {}\n`;
        }
        files['m0/special.ts'] = 'export function rareHandler7() {}\n';
        await writeTree(kit.workspace, files);
        const indexes = open(join(kit.home, 'ngram-many'));
        const ngram = indexes.for(kit.env.workspaceRoot);
        ngram.ready(kit.env.sandbox);
        expect((await ngram.settled()).state).toBe('ready');
        expect(await ngram.watched(kit.env.sandbox)).toBeDefined();

        const broad = await sameAsScan({ query: 'export function \\w+Handler\\d', is_regex: true }, indexes);
        expect(broad.engine).toBe('ripgrep');
        expect(broad.walk).toBe('ripgrep');
        expect(broad.total_matches).toBe(1);
        expect(broad.results.map((hit) => hit.file)).toEqual(['m0/special.ts']);
        // A selective one is still the index's, with no walk.
        const selective = await sameAsScan({ query: 'rareHandler7' }, indexes);
        expect(selective.engine).toBe('index');
        expect(selective.index?.candidates).toBe(1);
      },
      60_000,
    );
  },
);
