import { link, mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createFsWorkerPool } from '../../platform/search-engines/fs-worker-pool';
import type { FsWorkerPool } from '../../platform/search-engines/fs-worker-pool';
import { confinementMode } from '../../platform/processes/confinement';
import { rulesFor } from '../../platform/processes/process-rules';
import { ripgrepOnPath } from '../../platform/processes/ripgrep-locate';
import { ripgrepPatternArgs } from '../../platform/search-engines/ripgrep-pattern';
import { ripgrepCounts } from '../../platform/search-engines/ripgrep-search';
import { anchoredFilesIn } from '../../test-support/anchored-files';
import { useTempDirs } from '../../test-support/temp-dir';
import { createRipgrepEngine } from './search-ripgrep-engine';
import { compileQuery } from './search-query';

const tempDir = useTempDirs();
const rg = ripgrepOnPath();
let pool: FsWorkerPool;
afterEach(() => pool?.dispose());

const specOf = (query: string, isRegex = false) => {
  const compiled = compileQuery(query, { isRegex, caseSensitive: true, contextLines: 0, maxLineChars: 500 });
  if (!compiled.ok) throw new Error(compiled.error.message);
  return compiled.value;
};

describe.skipIf(rg === undefined)('the ripgrep engine', () => {
  it('never describes a file the sandbox would not read, whatever ripgrep read', async () => {
    // As if the walk had listed these names and they changed before ripgrep opened them: one is
    // now a symlink to a file outside the workspace, one a second hard link to an outside file.
    const outside = await tempDir();
    await writeFile(join(outside, 'secret.txt'), 'needle outside\n');
    const dir = await tempDir();
    await writeFile(join(dir, 'a.txt'), 'needle inside\n');
    await symlink(join(outside, 'secret.txt'), join(dir, 'link.txt'));
    await link(join(outside, 'secret.txt'), join(dir, 'hard.txt'));
    const files = anchoredFilesIn(dir, ['a.txt', 'hard.txt', 'link.txt']);
    const spec = specOf('needle');
    const args = ripgrepPatternArgs(spec)!;

    // ripgrep itself follows a named symlink: that is why its lines are never shown.
    const counted = await ripgrepCounts(rg!, args, files, new AbortController().signal);
    expect(counted?.counts.length).toBe(6);

    pool = createFsWorkerPool({ size: 1 });
    const engine = createRipgrepEngine(rg!, args, pool, spec, 100, new AbortController().signal);
    engine.add(0, files);
    const [batch] = await engine.finish();
    expect(batch?.result.files.map((file) => files.names[file.index])).toEqual(['a.txt']);
    expect(JSON.stringify(batch)).not.toContain('outside');
    // What the sandbox read is what counts for described files.
    expect([...batch!.result.counts]).toEqual([0, 1]);
  });

  it.runIf(process.platform === 'linux')(
    'does not take the count of a file swapped for a link out while ripgrep ran and back before the answer',
    async () => {
      const outside = await tempDir();
      await writeFile(join(outside, 'secret.txt'), 'needle outside\n'.repeat(50));
      const dir = await tempDir();
      await mkdir(join(dir, 'sub'));
      await writeFile(join(dir, 'sub', 'f.txt'), 'needle inside\n');
      await writeFile(join(dir, 'sub', 'g.txt'), 'needle too\n');
      // A ripgrep that, for the moment it runs, finds a symlink out in f.txt's place (it follows a
      // named link), and puts the file back when it is done: f.txt looks untouched but for its ctime.
      const bin = await tempDir();
      const fake = join(bin, 'rg');
      await writeFile(
        fake,
        [
          '#!/bin/sh',
          'mv sub/f.txt sub/away.txt',
          `ln -s '${join(outside, 'secret.txt')}' sub/f.txt`,
          `'${rg!}' "$@"`,
          'status=$?',
          'rm sub/f.txt',
          'mv sub/away.txt sub/f.txt',
          'exit $status',
          '',
        ].join('\n'),
        { mode: 0o755 },
      );
      await sleep(50); // the files are older than the count's start (no slack below)
      const spec = specOf('needle');
      pool = createFsWorkerPool({ size: 1 });
      const engine = createRipgrepEngine(
        fake,
        ripgrepPatternArgs(spec)!,
        pool,
        spec,
        1, // one line described: f.txt's count is ripgrep's unless it is counted again
        new AbortController().signal,
        { ctimeSlackMs: 0 },
      );
      const files = anchoredFilesIn(dir, ['sub/g.txt', 'sub/f.txt']);
      engine.add(0, files);
      const [batch] = await engine.finish();
      // g.txt described (1), f.txt counted again through the sandbox: its own one line, not 50.
      expect(new Map(pairsOf([...batch!.result.counts]))).toEqual(
        new Map([
          [0, 1],
          [1, 1],
        ]),
      );
    },
  );

  it("keeps ripgrep's count of a file whose lines were described before its end (a read that stopped there)", async () => {
    const dir = await tempDir();
    // 6 MB of matching lines: the file thread's first 4 MB chunk describes the ten asked for.
    const line = 'needle in a long log line that repeats itself many many times over\n';
    const lines = Math.ceil((6 << 20) / line.length);
    await writeFile(join(dir, 'big.log'), line.repeat(lines));
    await writeFile(join(dir, 'small.txt'), 'needle\n');
    const files = anchoredFilesIn(dir, ['big.log', 'small.txt']);
    const spec = specOf('needle');
    pool = createFsWorkerPool({ size: 1 });
    // The describing reads, seen on their way back from the file thread.
    const stoppedReads: number[] = [];
    const watched: FsWorkerPool = {
      ...pool,
      searchFiles: async (job, signal) => {
        const result = await pool.searchFiles(job, signal);
        stoppedReads.push(...(result.stopped ?? []));
        return result;
      },
    };
    const engine = createRipgrepEngine(rg!, ripgrepPatternArgs(spec)!, watched, spec, 10, new AbortController().signal);
    engine.add(0, files);
    const [batch] = await engine.finish();
    expect(stoppedReads).toEqual([0]);
    expect(batch!.result.files.map((file) => [file.index, file.hits.length, file.count])).toEqual([[0, 10, lines]]);
    expect(new Map(pairsOf([...batch!.result.counts]))).toEqual(
      new Map([
        [0, lines],
        [1, 1],
      ]),
    );
  });

  it('counts binary files with a match apart, as the JS engine judges them (NUL in the first 8 KB), and leaves a later NUL to it', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'early.bin'), Buffer.from('\0needle\n'));
    await writeFile(join(dir, 'late.txt'), Buffer.concat([Buffer.alloc(9000, 0x61), Buffer.from('\0\nneedle\n')]));
    const files = anchoredFilesIn(dir, ['early.bin', 'late.txt']);
    const counted = await ripgrepCounts(
      rg!,
      ripgrepPatternArgs(specOf('needle'))!,
      files,
      new AbortController().signal,
    );
    expect([...counted!.binaryFiles]).toEqual([0]);
    // ripgrep reads a NUL as a line's end, the JS engine (past the first 8 KB) as text: counted again.
    expect([...counted!.recount]).toEqual([1]);
    expect([...counted!.counts]).toEqual([]);
  });

  it('searches the root it holds by descriptor, even once that folder is renamed', async () => {
    const parent = await tempDir();
    await mkdir(join(parent, 'root'));
    await writeFile(join(parent, 'root', 'a.txt'), 'needle\n');
    const files = anchoredFilesIn(join(parent, 'root'), ['a.txt']);
    await rename(join(parent, 'root'), join(parent, 'moved'));
    await mkdir(join(parent, 'root'));
    await writeFile(join(parent, 'root', 'a.txt'), 'nothing\n');
    const counted = await ripgrepCounts(
      rg!,
      ripgrepPatternArgs(specOf('needle'))!,
      files,
      new AbortController().signal,
    );
    // proc-fd mode follows the descriptor; the portable mode names the path (and finds the new file).
    expect([...counted!.counts]).toEqual(files.mode === 'proc-fd' ? [0, 1] : []);
  });

  it.runIf(confinementMode().confined)(
    'confined (rules for ripgrep), reads nothing outside the workspace: a name swapped for a link to outside is not there',
    async () => {
      const outside = await tempDir();
      await writeFile(join(outside, 'secret.txt'), 'needle outside\n');
      const dir = await tempDir();
      await writeFile(join(dir, 'a.txt'), 'needle inside\n');
      await symlink(join(outside, 'secret.txt'), join(dir, 'link.txt'));
      const rules = rulesFor('ripgrep', {
        workspaceRoot: dir,
        personaDir: dir,
        familiarHome: await tempDir(),
        memoryOn: true,
        ripgrep: rg!,
      });
      const args = ripgrepPatternArgs(specOf('needle'))!;
      const signal = new AbortController().signal;
      // Unconfined, ripgrep follows the named link and counts the outside file's line.
      const plain = await ripgrepCounts(rg!, args, anchoredFilesIn(dir, ['a.txt', 'link.txt']), signal);
      expect(plain?.counts.length).toBe(4);
      // Confined, the link leads nowhere: an error, so the JS engine takes the batch.
      expect(await ripgrepCounts(rg!, args, anchoredFilesIn(dir, ['a.txt', 'link.txt']), signal, rules)).toBe(
        undefined,
      );
      // ...while what lies inside is searched as before.
      const inside = await ripgrepCounts(rg!, args, anchoredFilesIn(dir, ['a.txt']), signal, rules);
      expect([...inside!.counts]).toEqual([0, 1]);
    },
  );

  it('answers undefined (the JS engine takes the batch) when a named file is gone', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a.txt'), 'needle\n');
    const files = anchoredFilesIn(dir, ['a.txt', 'gone.txt']);
    expect(await ripgrepCounts(rg!, ripgrepPatternArgs(specOf('needle'))!, files, new AbortController().signal)).toBe(
      undefined,
    );
  });
});

describe.skipIf(rg === undefined)('the ripgrep engine describing a broad regex', () => {
  it('shares the files to describe out among the file workers, with the answer one worker gives', async () => {
    const dir = await tempDir();
    const names = Array.from({ length: 120 }, (_, i) => `f${String(i).padStart(3, '0')}.ts`);
    for (const [i, name] of names.entries()) await writeFile(join(dir, name), `export function handler${i}() {}\n`);
    await sleep(50); // past the file system clock's tick
    const spec = specOf('function handler\\d+', true);
    const args = ripgrepPatternArgs(spec)!;
    const describe = async (size: number) => {
      pool = createFsWorkerPool({ size });
      let jobs = 0;
      const counting: FsWorkerPool = {
        ...pool,
        size: pool.size,
        searchFiles: (job, signal) => {
          jobs += 1;
          return pool.searchFiles(job, signal);
        },
      };
      // No slack: these files, written before this count began, count as unchanged since.
      const engine = createRipgrepEngine(rg!, args, counting, spec, 1000, new AbortController().signal, {
        ctimeSlackMs: 0,
      });
      engine.add(0, anchoredFilesIn(dir, names));
      const [batch] = await engine.finish();
      await pool.dispose();
      return { jobs, files: batch!.result.files, counts: [...batch!.result.counts] };
    };
    const shared = await describe(2);
    const alone = await describe(1);
    expect(shared.jobs).toBe(2);
    expect(alone.jobs).toBe(1);
    expect(shared.files.map((file) => file.index)).toEqual(names.map((_, i) => i));
    expect(shared.files).toEqual(alone.files);
    expect(shared.counts.length).toBe(240);
    expect(new Map(pairsOf(shared.counts))).toEqual(new Map(pairsOf(alone.counts)));
  });
});

describe.runIf(process.platform === 'linux')("the ripgrep engine taking the counts ripgrep's walk made", () => {
  it.each([
    ['in this thread', undefined],
    ['in the file threads', 0],
  ])(
    'keeps those of files still what ripgrep read, and judges binary files as the JS engine does (%s)',
    async (_where, minThreadChecks) => {
      const outside = await tempDir();
      await writeFile(join(outside, 'secret.txt'), 'needle outside\n'.repeat(50));
      const dir = await tempDir();
      const names = [
        'a.txt',
        'b.txt',
        'bin.txt',
        'late.txt',
        'utf16.txt',
        'hard.txt',
        'uncounted.txt',
        'changed.txt',
        'bom.txt',
        'sub/f.txt',
      ];
      await writeFile(join(dir, 'a.txt'), 'needle\n');
      await writeFile(join(dir, 'b.txt'), 'needle\nneedle\n');
      await writeFile(join(dir, 'bin.txt'), 'needle\0\n');
      await writeFile(join(dir, 'late.txt'), `${'a'.repeat(9000)}\nneedle \0 needle\n`);
      await writeFile(join(dir, 'utf16.txt'), Buffer.from('\uFEFFneedle\n', 'utf16le'));
      await link(join(outside, 'secret.txt'), join(dir, 'hard.txt'));
      await writeFile(join(dir, 'uncounted.txt'), 'needle\n');
      await writeFile(join(dir, 'changed.txt'), 'nothing yet\n');
      await writeFile(join(dir, 'bom.txt'), '\uFEFFneedle\nneedle\n');
      await mkdir(join(dir, 'sub'));
      await writeFile(join(dir, 'sub', 'f.txt'), 'needle inside\n');
      await sleep(50);
      const startedAt = Date.now();
      await sleep(50); // past the clock's tick: these changes are after the walk's start
      await writeFile(join(dir, 'changed.txt'), 'needle\n');
      // While ripgrep walked: its folder swapped for one holding a hard link out, then put back.
      await rename(join(dir, 'sub'), join(dir, 'sub.away'));
      await mkdir(join(dir, 'sub'));
      await link(join(outside, 'secret.txt'), join(dir, 'sub', 'f.txt'));
      await rm(join(dir, 'sub'), { recursive: true });
      await rename(join(dir, 'sub.away'), join(dir, 'sub'));
      const { counts, binary } = await checkedWalkCounts(dir, names, [1, 7, 1, 1, 5, 50, -1, 9, 5, 50], startedAt, {
        threads: 2, // two shares of the check, in the file threads
        ...(minThreadChecks === undefined ? {} : { minThreadChecks }),
      });
      expect(counts).toEqual(
        new Map([
          ['a.txt', 1],
          ['b.txt', 7], // unchanged since: the walk's count stands
          ['late.txt', 1], // its NUL past the first 8 KB is text
          ['utf16.txt', 1], // UTF-16 is counted again
          ['uncounted.txt', 1],
          ['changed.txt', 1], // written after the walk started: counted again
          ['bom.txt', 2], // UTF-8 with a BOM is counted again
          ['sub/f.txt', 1], // its folder changed since the walk started: counted again
        ]),
      );
      expect(binary).toBe(1); // bin.txt; hard.txt, a second link to an outside file, not read
    },
  );
});

describe.runIf(process.platform === 'linux')('the check of the walk’s counts shared among the file threads', () => {
  it('puts each thread’s verdicts where its share began, when the last shares are empty (5 files, 4 threads)', async () => {
    const dir = await tempDir();
    const names = ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt'];
    for (const [at, name] of names.entries()) await writeFile(join(dir, name), 'needle\n'.repeat(at + 1));
    await writeFile(join(dir, 'c.txt'), 'needle\0\n'); // binary: its count is dropped
    await sleep(50);
    // Counts as ripgrep's walk made them: it read the binary c.txt as text.
    const { counts, binary } = await checkedWalkCounts(dir, names, [1, 2, 1, 4, 5], Date.now(), {
      threads: 4,
      minThreadChecks: 0,
    });
    expect(counts).toEqual(
      new Map([
        ['a.txt', 1],
        ['b.txt', 2],
        ['d.txt', 4],
        ['e.txt', 5],
      ]),
    );
    expect(binary).toBe(1);
  });
});

/**
 * The walk's `lines` for the files `names` under `dir`, as ripgrep's engine lets them stand (no
 * ripgrep started): each file's count by name, and how many were binary. The first file is described.
 */
async function checkedWalkCounts(
  dir: string,
  names: readonly string[],
  lines: readonly number[],
  startedAt: number,
  { threads, minThreadChecks }: { threads: number; minThreadChecks?: number },
) {
  const spec = specOf('needle');
  pool = createFsWorkerPool({ size: threads });
  const engine = createRipgrepEngine(
    '/no/such/rg',
    ripgrepPatternArgs(spec)!,
    pool,
    spec,
    1,
    new AbortController().signal,
    {
      ctimeSlackMs: 0,
      walkCounts: { lines, sizes: [], startedAt },
      ...(minThreadChecks === undefined ? {} : { minThreadChecks }),
    },
  );
  engine.add(0, anchoredFilesIn(dir, names));
  const [batch] = await engine.finish();
  const counts = new Map(pairsOf([...batch!.result.counts]).map(([index, count]) => [names[index], count]));
  return { counts, binary: batch!.result.binary };
}

const pairsOf = (flat: number[]) =>
  Array.from({ length: flat.length / 2 }, (_, i): [number, number] => [flat[2 * i]!, flat[2 * i + 1]!]);
