import * as fs from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileQuery } from '../../tools/search/search-query';
import { useTempDirs } from '../../test-support/temp-dir';
import { anchoredFilesIn } from '../../test-support/anchored-files';
import { createInProcessJobs } from './in-process-jobs';
import { anchoredOpener } from '../disk/anchored-opener';

const tempDir = useTempDirs();

/** What a line-by-line grep would say: 1-based numbers of the matching lines. */
function naive(text: string, matches: (line: string) => boolean): number[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.flatMap((line, i) => (matches(line) ? [i + 1] : []));
}

describe('the search job (in-process, tiny chunks to exercise segment seams)', () => {
  it('agrees with a line-by-line search for literals and regexes, any chunk size (property)', async () => {
    const dir = await tempDir();
    const file = join(dir, 'f.txt');
    const word = fc.constantFrom('foo', 'Foo', 'FOO', 'bar', 'x', 'ünï', '日本', ' ', '  ', 'fo', 'o', '\r');
    const line = fc.array(word, { maxLength: 8 }).map((words) => words.join(''));
    const query = fc.constantFrom('foo', 'Foo', 'oo', 'ar x', 'ünï', 'o b', 'FOO');
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 40 }),
        query,
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 16, max: 200 }),
        fc.boolean(),
        async (lines, needle, caseSensitive, isRegex, chunkSize, keptSmall) => {
          const text = lines.join('\n') + (lines.length > 0 ? '\n' : '');
          await writeFile(file, text);
          const source = isRegex ? `${needle.replace(' ', '\\s?')}` : needle;
          const spec = compileQuery(isRegex ? source.replace('\\s?', ' ?') : needle, {
            isRegex,
            caseSensitive,
            contextLines: 1,
            maxLineChars: 500,
          });
          if (!spec.ok) throw new Error(spec.error.message);
          // A line longer than the chunk grows it in place (up to keptBytes), then into a copy.
          const jobs = createInProcessJobs({ chunkSize, ...(keptSmall ? { keptBytes: chunkSize * 2 } : {}) });
          const search = () =>
            jobs.searchFiles({ spec: spec.value, files: anchoredFilesIn(dir, ['f.txt']), maxDetails: 1000 });
          const result = search();
          // Again with the buffer a first search may have grown: the same answer.
          expect(search()).toEqual(result);
          const pattern = isRegex ? new RegExp(source.replace('\\s?', ' ?'), caseSensitive ? 'u' : 'iu') : undefined;
          const expected = naive(text, (candidate) =>
            pattern !== undefined
              ? pattern.test(candidate)
              : caseSensitive
                ? candidate.includes(needle)
                : candidate.toLowerCase().includes(needle.toLowerCase()),
          );
          const hits = result.files[0]?.hits ?? [];
          expect(hits.map((hit) => hit.line)).toEqual(expected);
          expect(result.files[0]?.count ?? 0).toBe(expected.length);
          const all = text.split('\n');
          for (const hit of hits) {
            expect(hit.text).toBe(all[hit.line - 1]!.replace(/\r$/, ''));
            expect(hit.before).toEqual(hit.line > 1 ? [all[hit.line - 2]!.replace(/\r$/, '')] : []);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('grows its read buffer for a long line in place, then into a copy, and reads the next files with it', async () => {
    const dir = await tempDir();
    const chunkSize = 64 << 10;
    // 300 KB on one line: 64 KB, grown in place to 128 and 256 KB (the scanner's memory grows, its
    // views before are detached), then copied into 512 KB (past keptBytes).
    const long = `${'a'.repeat(150_000)} hit ${'b'.repeat(150_000)} hit\nhit after\n`;
    await writeFile(join(dir, 'long.txt'), long);
    await writeFile(join(dir, 'next.txt'), `${'c'.repeat(100_000)}\nhit next\n`);
    const spec = compileQuery('hit', { isRegex: false, caseSensitive: true, contextLines: 0, maxLineChars: 20 });
    if (!spec.ok) throw new Error('spec');
    const jobs = createInProcessJobs({ chunkSize, keptBytes: 256 << 10 });
    const search = () =>
      jobs.searchFiles({ spec: spec.value, files: anchoredFilesIn(dir, ['long.txt', 'next.txt']), maxDetails: 10 });
    for (let run = 0; run < 2; run += 1) {
      const result = search();
      expect(result.files.map((file) => file.hits.map((hit) => [hit.line, hit.column]))).toEqual([
        [
          [1, 150_002],
          [2, 1],
        ],
        [[2, 1]],
      ]);
      expect([...result.counts]).toEqual([0, 2, 1, 1]);
      expect(result.bytes).toBe(Buffer.byteLength(long) + 100_010);
    }
  });

  it('answers after its warm-up as it does without one, for each kind of query', async () => {
    const dir = await tempDir();
    const text = Array.from({ length: 400 }, (_, i) => `line ${i} ${i % 7 === 0 ? 'Needle über 42' : 'hay'}\n`).join(
      '',
    );
    await writeFile(join(dir, 'a.txt'), text);
    await writeFile(join(dir, 'b.txt'), `needle\n${'x'.repeat(300_000)} needle9\n`);
    const warm = createInProcessJobs();
    expect(warm.warmUp().length).toBe(4);
    for (const [query, isRegex, caseSensitive] of [
      ['needle', false, false],
      ['Needle', false, true],
      ['needle\\w*\\d', true, false],
      ['ne+dle', true, false],
    ] as const) {
      const spec = compileQuery(query, { isRegex, caseSensitive, contextLines: 1, maxLineChars: 80 });
      if (!spec.ok) throw new Error('spec');
      const job = () => ({ spec: spec.value, files: anchoredFilesIn(dir, ['a.txt', 'b.txt']), maxDetails: 1000 });
      const cold = createInProcessJobs().searchFiles(job());
      expect(cold.files.length).toBeGreaterThan(0);
      expect(warm.searchFiles(job())).toEqual(cold);
    }
  });

  it('counts matches beyond maxDetails without describing them, and skips binary files', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a.txt'), 'hit\nhit\nhit\n');
    await writeFile(join(dir, 'b.bin'), Buffer.from('hit\0hit'));
    const spec = compileQuery('hit', { isRegex: false, caseSensitive: true, contextLines: 0, maxLineChars: 500 });
    if (!spec.ok) throw new Error('spec');
    const result = createInProcessJobs().searchFiles({
      spec: spec.value,
      files: anchoredFilesIn(dir, ['a.txt', 'b.bin', 'gone.txt']),
      maxDetails: 1,
    });
    expect(result.files).toEqual([
      { index: 0, count: 3, hits: [{ line: 1, column: 1, text: 'hit', before: [], after: [] }] },
    ]);
    expect([...result.counts]).toEqual([0, 3]);
    expect(result.binary).toBe(1);
  });

  it('with stopWhenDescribed, stops reading a file once its lines are described, their context complete', async () => {
    const dir = await tempDir();
    const lines = Array.from({ length: 400 }, (_, i) => (i % 3 === 0 ? `hit ${i}` : `line ${i}`));
    await writeFile(join(dir, 'long.txt'), `${lines.join('\n')}\n`);
    await writeFile(join(dir, 'short.txt'), 'hit once\nno\n');
    const spec = compileQuery('hit', { isRegex: false, caseSensitive: true, contextLines: 2, maxLineChars: 500 });
    if (!spec.ok) throw new Error('spec');
    const files = () => anchoredFilesIn(dir, ['long.txt', 'short.txt']);
    // Tiny chunks: the file is read over many segments, so where it stops shows in the bytes read,
    // and some sizes cut between the fifth hit and its context.
    for (const chunkSize of [16, 24, 32, 40, 48, 56, 64]) {
      const jobs = createInProcessJobs({ chunkSize });
      const whole = jobs.searchFiles({ spec: spec.value, files: files(), maxDetails: 5 });
      const stopped = jobs.searchFiles({ spec: spec.value, files: files(), maxDetails: 5, stopWhenDescribed: true });
      // The same five lines with the same context; the long file is named as read in part, its
      // count what that part held, the short one read to its end and counted.
      expect(stopped.files.map((file) => file.hits)).toEqual(whole.files.map((file) => file.hits));
      expect(stopped.files[0]!.hits.at(-1)!.after).toEqual(['line 13', 'line 14']);
      expect([...whole.counts]).toEqual([0, 134, 1, 1]);
      expect(whole.stopped).toBeUndefined();
      expect([...stopped.stopped!]).toEqual([0]);
      const [, partCount, , shortCount] = [...stopped.counts];
      expect([partCount! >= 5 && partCount! < 10, shortCount]).toEqual([true, 1]);
      expect(stopped.files.map((file) => file.count)).toEqual([partCount, 1]);
      expect(stopped.bytes).toBeLessThan(200);
      expect(whole.bytes).toBeGreaterThan(3000);
    }
  });

  it("reads the walk's descriptors as they are, in the job's order, and closes each", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a.txt'), 'hit by name\n');
    await writeFile(join(dir, 'b.txt'), 'hit by name\n');
    await writeFile(join(dir, 'c.txt'), 'hit through the descriptor\n');
    await writeFile(join(dir, 'd.bin'), Buffer.from('hit\0'));
    await writeFile(join(dir, 'e.txt'), 'hit by name, after the others\n');
    const spec = compileQuery('hit', { isRegex: false, caseSensitive: true, contextLines: 0, maxLineChars: 500 });
    if (!spec.ok) throw new Error('spec');
    const { O_RDONLY } = fs.constants;
    // b.txt's descriptor is c.txt's: the job must read it, not open b.txt; gone.txt is read through its descriptor.
    const given = ['c.txt', 'd.bin', 'a.txt'].map((name) => fs.openSync(join(dir, name), O_RDONLY));
    const named = anchoredFilesIn(dir, ['a.txt', 'b.txt', 'd.bin', 'gone.txt', 'e.txt']);
    const files = { ...named, opened: Int32Array.from([-1, given[0]!, given[1]!, given[2]!, -1]) };
    const result = createInProcessJobs().searchFiles({ spec: spec.value, files, maxDetails: 10 });
    // In the job's order, though a.txt's confirmation by name comes after b.txt was read.
    expect(result.files.map((file) => [file.index, file.hits[0]?.text])).toEqual([
      [0, 'hit by name'],
      [1, 'hit through the descriptor'],
      [3, 'hit by name'],
      [4, 'hit by name, after the others'],
    ]);
    expect(result.binary).toBe(1);
    for (const fd of given) expect(() => fs.fstatSync(fd)).toThrow(/EBADF/);
  });

  it("closes the walk's descriptors a job never read", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a.txt'), 'a\n');
    const fd = fs.openSync(join(dir, 'a.txt'), fs.constants.O_RDONLY);
    const opener = anchoredOpener({ ...anchoredFilesIn(dir, ['a.txt']), opened: Int32Array.from([fd]) });
    opener.close();
    expect(() => fs.fstatSync(fd)).toThrow(/EBADF/);
  });

  it('stats entries: kind, size, missing', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'f'), 'abc');
    fs.symlinkSync('f', join(dir, 'l'));
    fs.mkdirSync(join(dir, 'd'));
    const rows = createInProcessJobs().statEntries(anchoredFilesIn(dir, ['f', 'd', 'l', 'missing']));
    // [kind, size] per path: file of 3 bytes, folder, symlink, gone.
    expect([rows[0], rows[1], rows[2], rows[4], rows[6]]).toEqual([0, 3, 1, 2, -1]);
  });
});
