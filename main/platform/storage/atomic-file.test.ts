import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from './atomic-file';
import { useTempDirs } from '../../test-support/temp-dir';

describe('writeFileAtomic', () => {
  const tempDir = useTempDirs();

  it('writes parts one after another, as one file, and leaves no temporary file', async () => {
    const dir = await tempDir('familiar-atomic-');
    const path = join(dir, 'segment.seg');
    const parts = [Buffer.from('head,'), Buffer.alloc(0), Buffer.alloc(200_000, 7), new Uint8Array([1, 2, 3])];
    await writeFileAtomic(path, parts);
    expect((await readFile(path)).equals(Buffer.concat(parts))).toBe(true);
    await writeFileAtomic(path, 'replaced');
    expect(await readFile(path, 'utf8')).toBe('replaced');
    expect(await readdir(dir)).toEqual(['segment.seg']);
  });
});
