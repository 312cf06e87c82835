import { statSync } from 'node:fs';
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCounting } from '../../test-support/counting-file';
import { seededRandom } from '../../test-support/seeded-random';
import { useTempDirs } from '../../test-support/temp-dir';
import { CHECKPOINT_LINES, LineOffsetCache } from './line-offsets';
import { readLineRange } from './line-range-reader';

const tempDir = useTempDirs();

/** Lines of random lengths (0 to 600 bytes), so lines straddle the reader's 1 MB chunks anywhere. */
function randomLines(count: number, seed: number): string[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => `${i + 1}:${'abcdefghij'.repeat(Math.floor(random() * 60))}`);
}

async function readWith(path: string, cache: LineOffsetCache, startLine: number, endLine: number, bomLength = 0) {
  const file = openCounting(path);
  try {
    const range = await readLineRange(file, {
      startLine,
      endLine,
      maxLines: 100_000,
      maxBytes: 10_000_000,
      encoding: 'utf-8',
      bomLength,
      offsets: cache.for(statSync(path), bomLength),
    });
    if (!range.ok) throw new Error(range.error.message);
    return { ...range.value, bytesRead: file.bytesRead };
  } finally {
    await file.close();
  }
}

describe('line offsets of a file version', () => {
  it('serves the same lines from checkpoints as from a scan, across chunk boundaries, and reads only near them', async () => {
    const lines = randomLines(30_000, 7); // ~9 MB: nine 1 MB chunks, seven checkpoints
    const path = join(await tempDir(), 'big.log');
    await writeFile(path, `${lines.join('\n')}\n`);
    const size = statSync(path).size;
    const cache = new LineOffsetCache();
    const first = await readWith(path, cache, 10, 12);
    expect(first.text).toBe(lines.slice(9, 12).join('\n'));
    expect(first.totalLines).toBe(30_000);
    expect(first.bytesRead).toBe(size); // the first read scans to the end for total_lines
    const offsets = cache.for(statSync(path), 0);
    expect(offsets.checkpoints).toHaveLength(Math.ceil(30_000 / CHECKPOINT_LINES));
    expect(offsets.totalLines).toBe(30_000);
    // Every start around a checkpoint, and the last lines.
    const starts = [
      CHECKPOINT_LINES - 1,
      CHECKPOINT_LINES,
      CHECKPOINT_LINES + 1,
      3 * CHECKPOINT_LINES + 1,
      29_990,
      30_000,
    ];
    for (const start of starts) {
      const again = await readWith(path, cache, start, start + 20);
      expect(again.text).toBe(lines.slice(start - 1, start + 20).join('\n'));
      expect(again.totalLines).toBe(30_000);
      // From the checkpoint before the start to the end of the range (two chunks at most) and the
      // one read ahead: three of the file's nine.
      expect(again.bytesRead).toBeLessThanOrEqual(3 * 1024 * 1024);
    }
    const past = await readWith(path, cache, 30_001, 30_010);
    expect(past).toMatchObject({ text: '', totalLines: 30_000, lastLine: 30_000 });
  });

  it('shows CRLF lines as LF and counts the last line without a newline, first read and again', async () => {
    const lines = randomLines(3 * CHECKPOINT_LINES + 5, 11);
    const path = join(await tempDir(), 'crlf.txt');
    await writeFile(path, `\ufeff${lines.join('\r\n')}`); // a byte order mark, CRLF, no final newline
    const cache = new LineOffsetCache();
    for (const start of [1, 2 * CHECKPOINT_LINES + 1, lines.length - 2, lines.length - 2]) {
      const read = await readWith(path, cache, start, start + 2, 3);
      expect(read.text).toBe(lines.slice(start - 1, start + 2).join('\n'));
      expect(read.totalLines).toBe(lines.length);
    }
    expect(cache.for(statSync(path), 3).checkpoints[0]).toBe(3);
  });

  it('forgets the offsets of a file once it changed (another size, mtime or inode is another version)', async () => {
    const lines = randomLines(2 * CHECKPOINT_LINES + 10, 3);
    const path = join(await tempDir(), 'grows.log');
    await writeFile(path, `${lines.join('\n')}\n`);
    const cache = new LineOffsetCache();
    expect((await readWith(path, cache, 5, 6)).totalLines).toBe(lines.length);
    // Rewritten with other line lengths: old checkpoints would land mid-line.
    const rewritten = randomLines(2 * CHECKPOINT_LINES + 40, 4);
    await writeFile(path, `${rewritten.join('\n')}\n`);
    const after = await readWith(path, cache, CHECKPOINT_LINES + 3, CHECKPOINT_LINES + 4);
    expect(after.text).toBe(rewritten.slice(CHECKPOINT_LINES + 2, CHECKPOINT_LINES + 4).join('\n'));
    expect(after.totalLines).toBe(rewritten.length);
    await appendFile(path, 'one more\n');
    const appended = await readWith(path, cache, 2 * CHECKPOINT_LINES + 41, 2 * CHECKPOINT_LINES + 41);
    expect(appended).toMatchObject({ text: 'one more', totalLines: rewritten.length + 1 });
    expect(cache.size).toBe(1); // the older versions of the file were dropped
  });

  it('stays within its bounds, dropping the least recently read file first', () => {
    const cache = new LineOffsetCache(2, 1000);
    const facts = (ino: number) => ({ dev: 1, ino, size: 10, mtimeMs: 1 });
    cache.for(facts(1), 0);
    cache.for(facts(2), 0);
    cache.for(facts(1), 0);
    cache.for(facts(3), 0);
    expect(cache.size).toBe(2);
    expect(cache.for(facts(1), 0).checkpoints).toEqual([0]);
    const big = cache.for(facts(4), 0);
    big.checkpoints.push(...Array.from({ length: 1500 }, (_, i) => i + 1));
    cache.trim();
    expect(cache.size).toBeLessThanOrEqual(1);
  });
});
