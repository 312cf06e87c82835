import { lstatSync } from 'node:fs';
import { link, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { anchoredFilesIn } from '../../test-support/anchored-files';
import { useTempDirs } from '../../test-support/temp-dir';
import { checkCounts, COUNT_AGAIN, COUNT_BINARY, COUNT_STANDS } from './count-checks';

const tempDir = useTempDirs();

describe.runIf(process.platform === 'linux')('the check of the counts ripgrep made', () => {
  it('gives each file its verdict and the size it found, which the engine shares its reads by', async () => {
    const outside = await tempDir();
    await writeFile(join(outside, 'secret.txt'), 'needle outside\n');
    const dir = await tempDir();
    const names = ['big.txt', 'bin.txt', 'hard.txt', 'utf16.txt', 'small.txt'];
    await writeFile(join(dir, 'big.txt'), `needle\n${'x'.repeat(20_000)}\n`);
    await writeFile(join(dir, 'bin.txt'), 'needle\0\n');
    await link(join(outside, 'secret.txt'), join(dir, 'hard.txt'));
    await writeFile(join(dir, 'utf16.txt'), Buffer.from('\uFEFFneedle\n', 'utf16le'));
    await writeFile(join(dir, 'small.txt'), 'needle\n');
    await sleep(20); // past the clock's tick: nothing changed since the "walk" started
    const { verdicts, sizes } = checkCounts({
      files: anchoredFilesIn(dir, names),
      indices: Int32Array.from([0, 1, 2, 3, 4]),
      sinceMs: Date.now(),
      judgeBinary: true,
    });
    expect([...verdicts]).toEqual([COUNT_STANDS, COUNT_BINARY, COUNT_AGAIN, COUNT_AGAIN, COUNT_STANDS]);
    // The sizes of the files read; none of the second hard link, which is not read at all.
    expect(sizes[0]).toBe(7 + 20_001);
    expect(sizes[1]).toBe(8);
    expect(sizes[2]).toBe(0);
    expect(sizes[4]).toBe(7);
  });

  it('with the ctimes the index read the files at: one lstat each, a file changed since counted again', async () => {
    const outside = await tempDir();
    const dir = await tempDir();
    await writeFile(join(dir, 'same.txt'), 'needle\n');
    await writeFile(join(dir, 'rewritten.txt'), 'needle\n');
    await writeFile(join(outside, 'secret.txt'), 'needle outside\n');
    await link(join(outside, 'secret.txt'), join(dir, 'hard.txt'));
    const indexed = ['same.txt', 'rewritten.txt', 'hard.txt'].map((name) => lstatSync(join(dir, name)).ctimeMs);
    await sleep(20);
    // Rewritten since it was indexed (by a name no watch of the workspace hears, say): same size, new ctime.
    await writeFile(join(dir, 'rewritten.txt'), 'NEEDLE\n');
    await sleep(20); // past the clock's tick: nothing changed since the "walk" started
    const { verdicts, sizes } = checkCounts({
      files: anchoredFilesIn(dir, ['same.txt', 'rewritten.txt', 'hard.txt']),
      indices: Int32Array.from([0, 1, 2]),
      sinceMs: Date.now(),
      judgeBinary: false,
      ctimes: Float64Array.from(indexed),
    });
    expect([...verdicts]).toEqual([COUNT_STANDS, COUNT_AGAIN, COUNT_AGAIN]);
    expect(sizes[0]).toBe(7);
  });
});
