import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnchorRoots } from '../../platform/disk/anchor-roots';
import { createFsWorkerPool } from '../../platform/search-engines/fs-worker-pool';
import type { FsWorkerPool } from '../../platform/search-engines/fs-worker-pool';
import { ripgrepPatternArgs } from '../../platform/search-engines/ripgrep-pattern';
import { useTempDirs } from '../../test-support/temp-dir';
import { compileQuery } from './search-query';
import { walkFedRipgrepEngine } from './walk-fed-engine';

const tempDir = useTempDirs();
let pool: FsWorkerPool | undefined;
afterEach(() => pool?.dispose());

describe('walkFedRipgrepEngine', () => {
  it('fed by the walk, counts what it is handed, and stops its checks when told (the walk failed)', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a.txt'), 'needle\nneedle\n');
    const roots = createAnchorRoots();
    const root = roots.get(dir)!;
    const anchor = { mode: roots.anchored.mode, dir: root.dir, hardLinks: 'refuse' } as const;
    const compiled = compileQuery('needle', {
      isRegex: false,
      caseSensitive: true,
      contextLines: 0,
      maxLineChars: 500,
    });
    if (!compiled.ok) throw new Error(compiled.error.message);
    const spec = compiled.value;
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
    const compiled = compileQuery('needle', {
      isRegex: false,
      caseSensitive: true,
      contextLines: 0,
      maxLineChars: 500,
    });
    if (!compiled.ok) throw new Error(compiled.error.message);
    const spec = compiled.value;
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
});
