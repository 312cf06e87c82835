import { appendFile, mkdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NgramIndexes } from '../../domain/search/ngram/ngram-indexes';
import { watcherVouches } from '../../platform/watching/tree-watcher';
import { ripgrepOnPath } from '../../platform/processes/ripgrep-locate';
import { ripgrepCanWalk } from '../../platform/search-engines/ripgrep-walk';
import { ripgrepPatternArgs } from '../../platform/search-engines/ripgrep-pattern';
import { compileQuery } from './search-query';
import { useTempDirs } from '../../test-support/temp-dir';
import { createToolKit } from '../../test-support/tool-kit';
import type { ToolKit } from '../../test-support/tool-kit';
import type { SearchInCodeOutput } from '../search-in-code';
import * as searchTrees from '../../test-support/search-trees';

/**
 * The trigram index answers exactly as a scan: generated trees (non-ASCII, case-folding traps,
 * binary files, ignored and hidden files), generated literals and regexes, every field compared;
 * then a file changed, added or removed behind the index's back is found by the very next query.
 */
const tempDir = useTempDirs();
const rg = ripgrepOnPath();
let kit: ToolKit;
let runs = 0;
// The temporary folders go after each test: a kit per test.
beforeEach(async () => {
  kit = await createToolKit(tempDir, { limits: { callsPerMinute: 1_000_000 }, searchEngine: 'js' });
});
afterEach(() => kit?.dispose());

// \u212a (Kelvin sign) and \u017f (long s) match k and s under Unicode case folding ('iu').
const words = ['\u212a', '\u017f', 'bas', 'ta', ...searchTrees.trapWords, 'sk', '日本'];
const line = searchTrees.lineOf(words);
const content = fc
  .record({ lines: fc.array(line, { maxLength: 10 }), nul: fc.constantFrom('none', 'none', 'none', 'early') })
  .map(({ lines, nul }) => {
    const bytes = Buffer.from(lines.join('\n') + '\n', 'utf8');
    return nul === 'early' ? Buffer.concat([Buffer.from([0]), bytes]) : bytes;
  });
const tree = fc.dictionary(searchTrees.treePaths, content, { minKeys: 1, maxKeys: 8 });
const literalQuery = fc.constantFrom(
  'a\u017fk',
  'ba\u017f',
  ...searchTrees.trapLiterals,
  'sk',
  'SK',
  'Ünï',
  '日本',
  'bar',
  'fooba',
  'ooF',
);
const regexAtom = fc.constantFrom(
  'bask',
  'task',
  'a\u212a',
  ...searchTrees.trapRegexAtoms,
  'sk',
  '[kK]',
  '日本',
  '\\u00e9',
  '(?=foo)',
  '(.)\\1',
);
const regexQuery = fc.array(regexAtom, { minLength: 1, maxLength: 3 }).map((atoms) => atoms.join(''));
const query = searchTrees.queryOf(literalQuery, regexQuery);
const change = fc.record({
  path: searchTrees.treePaths,
  bytes: content,
  kind: fc.constantFrom('append', 'create', 'delete'),
});

/** A fresh index of the tree as it is now (its own data folder), ready; `watched`: with its change watcher. */
async function freshIndex(racyMs = 0, watched = false): Promise<NgramIndexes> {
  runs += 1;
  const indexes = new NgramIndexes(join(kit.home, `ngram-${runs}`), kit.services.workers, {
    racyMs,
    ...(watched ? { anchored: kit.services.roots.anchored } : {}),
  });
  indexes.for(kit.env.workspaceRoot).ready(kit.env.sandbox);
  const status = await indexes.for(kit.env.workspaceRoot).settled();
  expect(status.state).toBe('ready');
  return indexes;
}

function search(args: object, indexes?: NgramIndexes, ripgrep?: string): Promise<SearchInCodeOutput> {
  return searchTrees.searchWith(kit, args, (env) =>
    indexes === undefined
      ? { ...env, searchIndexEnabled: () => false }
      : {
          ...env,
          ngramIndexes: indexes,
          searchIndexEnabled: () => true,
          ...(ripgrep === undefined ? {} : { ripgrep }),
        },
  );
}
/** `watched`: the index's watcher vouches for it, so the query must not walk (`walk: 'index'` tells). */
async function sameAsScan(args: object, indexes: NgramIndexes, watched = false) {
  const indexed = await search(args, indexes);
  expect(indexed.walk).toBe(watched ? 'index' : undefined);
  const scanned = await search(args);
  expect(indexed.engine).toBe('index');
  expect(scanned.engine).toBe('js');
  const { engine: _i, index: _s, walk: _w, ...fromIndex } = indexed;
  const { engine: _j, ...fromScan } = scanned;
  expect(fromIndex).toEqual(fromScan);
  if (rg !== undefined) {
    // Many candidates go to ripgrep: the same answers (ripgrep counts only binary files that match).
    // Where ripgrep walks confined, an index no watcher vouches for leaves the search to that walk.
    const { engine, index: _r, walk, skipped_binary: _b, ...byRipgrep } = await search(args, indexes, rg);
    const walked = !watched && ripgrepCanWalk() && ripgrepTakes(args as { query: string });
    expect({ engine, walk }).toEqual(
      walked ? { engine: 'ripgrep', walk: 'ripgrep' } : { engine: 'index', ...(watched ? { walk: 'index' } : {}) },
    );
    const { skipped_binary: _c, ...scannedLines } = fromScan;
    expect(byRipgrep).toEqual(scannedLines);
  }
  return indexed;
}

/** ripgrep means the same by the query as the JS engine (else the JS engine searches, and ripgrep does not walk). */
function ripgrepTakes(args: { query: string; is_regex?: boolean; case_sensitive?: boolean }): boolean {
  const spec = compileQuery(args.query, {
    isRegex: args.is_regex ?? false,
    caseSensitive: args.case_sensitive ?? false,
    contextLines: 0,
    maxLineChars: kit.env.limits.maxLineChars,
  });
  return spec.ok && ripgrepPatternArgs(spec.value) !== undefined;
}

describe('search_in_code with the trigram index', () => {
  // Without the watcher each query walks and compares every file; with it (trusted: nothing here
  // breaks its trust) no query walks, and the changes are what it heard.
  it('answers exactly as a scan, also right after files change behind its back (property)', async () => {
    let skippedSome = 0;
    await fc.assert(
      fc.asyncProperty(
        tree,
        query,
        fc.array(change, { maxLength: 3 }),
        fc.boolean(),
        async (files, q, changes, watched) => {
          await searchTrees.writeTree(kit.workspace, files);
          // The watcher exists on Linux only (tree-watcher.ts): elsewhere both halves walk.
          watched &&= watcherVouches;
          const indexes = await freshIndex(0, watched);
          try {
            const args = { ...q, max_results: 100 };
            await sameAsScan(args, indexes, watched);
            // Changes by another program (plain fs calls): sizes change, so does ctime.
            for (const { path, bytes, kind } of changes) {
              const file = join(kit.workspace, path);
              await mkdir(join(file, '..'), { recursive: true });
              if (kind === 'append') await appendFile(file, bytes);
              else if (kind === 'create') await writeFile(file, Buffer.concat([bytes, Buffer.from('new\n')]));
              else await unlink(file).catch(() => undefined);
            }
            const after = await sameAsScan(args, indexes, watched);
            if (after.index!.candidates! < after.searched_files) skippedSome += 1;
            // A file_pattern that takes every file lists the index the long way: the same answer.
            expect(await search({ ...args, file_pattern: '**' }, indexes)).toEqual(after);
          } finally {
            await indexes.close();
          }
        },
      ),
      { numRuns: Number(process.env['SEARCH_PROPERTY_RUNS'] ?? 60) },
    );
    // The index must have spared the matcher files, or the comparison proves little.
    expect(skippedSome).toBeGreaterThan(5);
  }, 300_000);

  it('answers the first query after a restart from the saved index, not from a scan (issue 32 item 2)', async () => {
    await searchTrees.writeTree(kit.workspace, { 'a.txt': 'alpha\n', 'src/b.txt': 'beta\n', 'src/c.txt': 'gamma\n' });
    const dir = join(kit.home, 'ngram-restart');
    const first = new NgramIndexes(dir, kit.services.workers, { racyMs: 0 });
    first.for(kit.env.workspaceRoot).ready(kit.env.sandbox);
    expect((await first.for(kit.env.workspaceRoot).settled()).state).toBe('ready');
    await first.close();
    const again = new NgramIndexes(dir, kit.services.workers, { racyMs: 0 });
    const answer = await search({ query: 'beta' }, again);
    expect(answer.engine).toBe('index');
    expect(answer.index).toMatchObject({ state: 'ready', candidates: 1 });
    expect(answer.results.map((hit) => hit.file)).toEqual(['src/b.txt']);
    await again.close();
  });
});
