import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type * as piscina from 'piscina';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WORKER_YOUNG_GENERATION_MB } from '../heap/heap-release';
import { anchoredFilesIn } from '../../test-support/anchored-files';
import { useTempDirs } from '../../test-support/temp-dir';
import { createFsWorkerPool } from './fs-worker-pool';
import type { FsWorkerPool } from './fs-worker-pool';

type Options = NonNullable<ConstructorParameters<typeof piscina.Piscina>[0]>;

/** The options each thread pool was made with: the real piscina, watched. */
const made = vi.hoisted((): Options[] => []);
vi.mock('piscina', async (importOriginal) => {
  const original = await importOriginal<typeof piscina>();
  class Watched<T, R> extends original.Piscina<T, R> {
    constructor(options: Options) {
      made.push(options);
      super(options);
    }
  }
  return { ...original, Piscina: Watched };
});

const tempDir = useTempDirs();
let pool: FsWorkerPool | undefined;
afterEach(() => pool?.dispose());

describe("the file worker pool's threads", () => {
  it("keep a small young generation, search and index threads alike, whatever the main thread's (heap-release.ts)", async () => {
    pool = createFsWorkerPool({ size: 1 });
    const dir = await tempDir();
    await writeFile(join(dir, 'a.txt'), 'alpha\n');
    pool.warm();
    await pool.indexFiles(anchoredFilesIn(dir, ['a.txt']), 0);
    expect(
      made.map((options) => (options.workerData as { background?: boolean } | undefined)?.background === true),
    ).toEqual([false, true]);
    for (const options of made)
      expect(options.resourceLimits).toEqual({ maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB });
  });
});
