import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnchorRoots } from '../../platform/disk/anchor-roots';
import { createFsWorkerPool } from '../../platform/search-engines/fs-worker-pool';
import type { FsWorkerPool } from '../../platform/search-engines/fs-worker-pool';
import { ripgrepPatternArgs } from '../../platform/search-engines/ripgrep-pattern';
import type { SearchSpec } from '../../platform/search-engines/search-types';
import { useTempDirs } from '../../test-support/temp-dir';
import { compileQuery } from './search-query';
import { walkFedRipgrepEngine } from './walk-fed-engine';
import { setTimeout as sleep } from 'node:timers/promises';

const tempDir = useTempDirs();
let pool: FsWorkerPool | undefined;
afterEach(() => pool?.dispose());

/** Files of `text` named `names` in a new folder, and the root they are anchored under. */
async function anchoredFiles(names: readonly string[], text: string) {
  const dir = await tempDir();
  for (const name of names) await writeFile(join(dir, name), text);
  const roots = createAnchorRoots();
  const root = roots.get(dir)!;
  return { root, anchor: { mode: roots.anchored.mode, dir: root.dir, hardLinks: 'refuse' } as const };
}

/** The query compiled as search_in_code compiles it: case-sensitive, no context. */
function specOf(query: string, isRegex: boolean): SearchSpec {
  const compiled = compileQuery(query, { isRegex, caseSensitive: true, contextLines: 0, maxLineChars: 500 });
  if (!compiled.ok) throw new Error(compiled.error.message);
  return compiled.value;
}

/**
 * 600 files of one matching line each, anchored, and a regex for them (its describing goes to the
 * file threads, as the bench corpus's broad regex does).
 */
async function sixHundredFiles() {
  const names = Array.from({ length: 600 }, (_, i) => `f${String(i).padStart(3, '0')}.txt`);
  return { names, ...(await anchoredFiles(names, 'hay\nneedle7 here\n')), spec: specOf('needle\\d', true) };
}

describe('walkFedRipgrepEngine', () => {
  it('fed by the walk, counts what it is handed, and stops its checks when told (the walk failed)', async () => {
    const { root, anchor } = await anchoredFiles(['a.txt'], 'needle\nneedle\n');
    const spec = specOf('needle', false);
    pool = createFsWorkerPool({ size: 1 });
    const fed = (stopped: boolean) => {
      const made = walkFedRipgrepEngine(
        { rg: '/no/such/rg', patternArgs: ripgrepPatternArgs(spec)!, workers: pool!, spec, maxResults: 10, named: 1 },
        { signal: new AbortController().signal, startedAt: Date.now(), anchorOf: () => anchor },
      );
      if (stopped) made.stop();
      // Not counted by ripgrep (-1, as the persona overlay's files): the file threads count it.
      const entry = { relPath: 'a.txt', inPersona: false, dirRealRel: '', dirId: root.dir, name: 'a.txt' };
      made.sink(entry, -1, 0);
      made.batches.finish();
      return made.engine.finish();
    };
    const [batch] = await fed(false);
    expect([...batch!.result.counts]).toEqual([0, 2]);
    await expect(fed(true)).rejects.toThrow();
  });

  it('makes four batches of a few thousand candidates (their checks start during the walk), 256 files at least, 2,048 at most', () => {
    const spec = specOf('needle', false);
    pool = createFsWorkerPool({ size: 1 });
    const batchFiles = (named: number) =>
      walkFedRipgrepEngine(
        { rg: '/no/such/rg', patternArgs: ripgrepPatternArgs(spec)!, workers: pool!, spec, maxResults: 10, named },
        { signal: new AbortController().signal, startedAt: Date.now(), anchorOf: () => undefined },
      ).engine.batchFiles;
    expect(batchFiles(300)).toBe(256);
    expect(batchFiles(1904)).toBe(476);
    expect(batchFiles(8192)).toBe(2048);
    expect(batchFiles(28_000)).toBe(2048);
  });

  it('describes the first batches once their counts reach max_results, while later ones are still checked', async () => {
    const { names, root, anchor, spec } = await sixHundredFiles();
    const real = createFsWorkerPool({ size: 1 });
    pool = real;
    // The second batch's check waits until the test lets it go; describing says when it starts.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let checks = 0;
    let describing = false;
    const workers: FsWorkerPool = {
      ...real,
      size: real.size,
      hold: real.hold,
      checkCounts: async (job, signal) => {
        checks += 1;
        if (checks === 2) await held;
        return real.checkCounts(job, signal);
      },
      searchFiles: (job, signal) => {
        if (job.maxDetails > 0) describing = true;
        return real.searchFiles(job, signal);
      },
    };
    const made = walkFedRipgrepEngine(
      { rg: '/no/such/rg', patternArgs: ripgrepPatternArgs(spec)!, workers, spec, maxResults: 10, named: names.length },
      // As if ripgrep started well after these files were written: their counts stand.
      { signal: new AbortController().signal, startedAt: Date.now() + 60_000, anchorOf: () => anchor },
    );
    for (const name of names) {
      made.sink({ relPath: name, inPersona: false, dirRealRel: '', dirId: root.dir, name }, 1, 16);
    }
    made.batches.finish();
    const answer = made.engine.finish();
    // Three batches (256, 256, 88): the first one's 256 lines reach max_results alone.
    try {
      for (let waited = 0; !describing && waited < 5000; waited += 10) await sleep(10);
      expect(describing).toBe(true);
      expect(checks).toBe(2);
    } finally {
      release();
    }
    const done = await answer;
    expect(done.map((batch) => batch.offset)).toEqual([0, 256, 512]);
    // Each file's count, from its batch's [index, count] pairs.
    const lines = done.flatMap((batch) => [...batch.result.counts].filter((_, at) => at % 2 === 1));
    expect(lines).toEqual(names.map(() => 1));
    const hits = done.flatMap((batch) => batch.result.files.flatMap((file) => file.hits.map((hit) => hit.text)));
    expect(hits).toEqual(Array(10).fill('needle7 here'));
  });

  it('describes again from the start when the first batches fell short of max_results (their counts did not hold)', async () => {
    const { names, root, anchor, spec } = await sixHundredFiles();
    pool = createFsWorkerPool({ size: 1 });
    const made = walkFedRipgrepEngine(
      { rg: '/no/such/rg', patternArgs: ripgrepPatternArgs(spec)!, workers: pool, spec, maxResults: 300, named: 600 },
      { signal: new AbortController().signal, startedAt: Date.now() + 60_000, anchorOf: () => anchor },
    );
    // ripgrep said two lines a file: the first batch's 256 files seem to hold 512, but hold 256.
    for (const name of names) {
      made.sink({ relPath: name, inPersona: false, dirRealRel: '', dirId: root.dir, name }, 2, 16);
    }
    made.batches.finish();
    const done = await made.engine.finish();
    const described = done.flatMap((batch) => batch.result.files.map((file) => names[batch.offset + file.index]));
    expect(described).toEqual(names.slice(0, 300));
    // Each described file counts what was read of it (one line); the others, ripgrep's two, as stood.
    const countOf = new Map<string, number>();
    for (const batch of done) {
      const flat = [...batch.result.counts];
      for (let at = 0; at < flat.length; at += 2) countOf.set(names[batch.offset + flat[at]!]!, flat[at + 1]!);
    }
    expect(names.map((name) => countOf.get(name))).toEqual([
      ...Array<number>(300).fill(1),
      ...Array<number>(300).fill(2),
    ]);
    expect(done.map((batch) => batch.result.binary)).toEqual([0, 0, 0]);
  });
});
