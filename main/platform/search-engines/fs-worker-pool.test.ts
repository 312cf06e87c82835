import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compileQuery } from '../../tools/search/search-query';
import { useTempDirs } from '../../test-support/temp-dir';
import { anchoredFilesIn } from '../../test-support/anchored-files';
import { createFsWorkerPool, fsWorkerFile } from './fs-worker-pool';
import type { FsWorkerPool } from './fs-worker-pool';
import { NGRAM_INDEXED } from './ngram-types';

const tempDir = useTempDirs();
let pool: FsWorkerPool;
afterEach(() => pool?.dispose());

const spec = (query: string, isRegex = false) => {
  const compiled = compileQuery(query, { isRegex, caseSensitive: true, contextLines: 0, maxLineChars: 500 });
  if (!compiled.ok) throw new Error(compiled.error.message);
  return compiled.value;
};

describe('the file worker pool', () => {
  it('runs a real worker module: the built one beside the bundle, or under vitest the source through jiti', () => {
    // No code shipped as text to an eval'd worker: piscina gets a file name.
    expect(fsWorkerFile()).toMatch(/main\/platform\/search-engines\/fs-worker-source\.mjs$/);
  });

  it('runs jobs in worker threads and answers in order per task', async () => {
    pool = createFsWorkerPool({ size: 2 });
    const dir = await tempDir();
    await writeFile(join(dir, 'a.txt'), 'alpha\n');
    const [rows, found] = await Promise.all([
      pool.statEntries(anchoredFilesIn(dir, ['a.txt', 'nope'])),
      pool.searchFiles({ spec: spec('alpha'), files: anchoredFilesIn(dir, ['a.txt']), maxDetails: 10 }),
    ]);
    expect([...rows]).toEqual([0, 6, -1, 0]);
    expect(found.files[0]?.hits[0]?.text).toBe('alpha');
  });

  it('ends a runaway regex by terminating its worker; other calls’ tasks survive', async () => {
    pool = createFsWorkerPool({ size: 1 });
    const dir = await tempDir();
    // 60 letters: the backtracking would outlive the test, so only terminating the worker ends it.
    await writeFile(join(dir, 'evil.txt'), `${'a'.repeat(60)}!\n`);
    await writeFile(join(dir, 'fine.txt'), 'fine\n');
    // The thread is up and idle first, so the abort lands on a running task, not a queued one.
    await pool.statEntries(anchoredFilesIn(dir, ['fine.txt']));
    const stop = new AbortController();
    const runaway = pool.searchFiles(
      { spec: spec('^(a|aa)+$', true), files: anchoredFilesIn(dir, ['evil.txt']), maxDetails: 10 },
      stop.signal,
    );
    // Queued behind the runaway on the only worker, under another signal.
    const innocent = pool.searchFiles(
      { spec: spec('fine'), files: anchoredFilesIn(dir, ['fine.txt']), maxDetails: 10 },
      new AbortController().signal,
    );
    setTimeout(() => stop.abort(), 100);
    await expect(runaway).rejects.toMatchObject({ name: 'AbortError' });
    expect((await innocent).files[0]?.count).toBe(1);
  });

  // Linux only: there a nice value is a thread's (fs-worker.ts leaves other systems alone).
  it.runIf(process.platform === 'linux')(
    'builds indexes in low-priority threads and searches in normal ones',
    async () => {
      // This process's threads by nice value (field 19 of /proc/self/task/<tid>/stat).
      const threadsAtNice = (nice: number) =>
        readdirSync('/proc/self/task').filter((tid) => {
          const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) === nice;
        }).length;
      pool = createFsWorkerPool({ size: 2 });
      const dir = await tempDir();
      await writeFile(join(dir, 'a.txt'), 'alpha beta\n');
      const files = anchoredFilesIn(dir, ['a.txt']);
      await pool.searchFiles({ spec: spec('alpha'), files, maxDetails: 1 });
      expect(threadsAtNice(19)).toBe(0);
      const segment = await pool.indexFiles(files, 0);
      expect(segment).toBeDefined();
      expect(threadsAtNice(19)).toBe(1);
      // The search threads are untouched: a second search still runs at normal priority.
      await pool.searchFiles({ spec: spec('beta'), files, maxDetails: 1 });
      expect(threadsAtNice(19)).toBe(1);
    },
  );

  it('holds an index job between files while the hold is set (a tool call runs), searches not', async () => {
    pool = createFsWorkerPool({ size: 1 });
    const { hold } = pool; // the flag the call gate sets (tool-services.ts)
    const dir = await tempDir();
    await writeFile(join(dir, 'a.txt'), 'alpha beta\n');
    const files = anchoredFilesIn(dir, ['a.txt']);
    await pool.indexFiles(files, 0); // the index thread started (not held): a slow start proves nothing below
    Atomics.store(hold, 0, 1);
    let indexed = false;
    const job = pool.indexFiles(files, 0).then((segment) => {
      indexed = true;
      return segment;
    });
    // A search in the meantime is not held (its threads are the foreground's).
    const found = await pool.searchFiles({ spec: spec('alpha'), files, maxDetails: 1 });
    expect([...found.counts]).toEqual([0, 1]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(indexed).toBe(false);
    Atomics.store(hold, 0, 0);
    Atomics.notify(hold, 0);
    expect((await job).flags).toEqual(new Uint8Array([NGRAM_INDEXED]));
  });

  it('starts every search thread when warmed, not only the one it keeps', async () => {
    pool = createFsWorkerPool({ size: 2 });
    expect(pool.searchThreads()).toBe(0);
    pool.warm();
    await vi.waitFor(() => expect(pool.searchThreads()).toBe(2), { timeout: 10_000, interval: 20 });
  });

  it('rejects a task whose signal is already aborted, and everything after dispose', async () => {
    pool = createFsWorkerPool({ size: 1 });
    const files = anchoredFilesIn(await tempDir(), ['x']);
    await expect(pool.statEntries(files, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
    await pool.dispose();
    await expect(pool.statEntries(files)).rejects.toThrow(/closed/);
  });
});
