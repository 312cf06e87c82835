import { link, mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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

const specOf = (query: string) => {
  const compiled = compileQuery(query, { isRegex: false, caseSensitive: true, contextLines: 0, maxLineChars: 500 });
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

  it('counts binary files with a match apart, as the JS engine judges them (NUL in the first 8 KB)', async () => {
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
    expect(counted?.binary).toBe(1);
    expect([...counted!.counts]).toEqual([1, 1]);
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
