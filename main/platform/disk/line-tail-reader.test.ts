import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCounting } from '../../test-support/counting-file';
import { useTempDirs } from '../../test-support/temp-dir';
import { readLinesFromEnd } from './line-tail-reader';

const tempDir = useTempDirs();

describe('readLinesFromEnd', () => {
  it('reads a few blocks at the end of a big file, not the file', async () => {
    const dir = await tempDir();
    const path = join(dir, 'big.log');
    const lines = Array.from({ length: 100_000 }, (_, i) => `${i + 1} ${'x'.repeat(60)}`);
    const text = `${lines.join('\n')}\n`; // ~6.7 MB
    await writeFile(path, text);
    const file = openCounting(path);
    try {
      const read = await readLinesFromEnd(file, {
        fromEnd: 50,
        size: Buffer.byteLength(text),
        maxLines: 2000,
        maxBytes: 50_000,
        encoding: 'utf-8',
        bomLength: 0,
      });
      expect(read.ok && read.value).toMatchObject({ counted: false, firstLine: -50, lastLine: -1 });
      expect(read.ok && read.value.text).toBe(lines.slice(-50).join('\n'));
      expect(file.bytesRead).toBeLessThan(200_000);
    } finally {
      await file.close();
    }
  });
});
