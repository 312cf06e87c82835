import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTempDirs } from '../../test-support/temp-dir';
import { appendJsonLines, appendJsonLinesSync, readJsonLines } from './jsonl-file';

const tempDir = useTempDirs();
const record = z.object({ n: z.number() });
/** What reading a file with these records and nothing wrong in it gives. */
const cleanRead = (...ns: number[]) => ({ records: ns.map((n) => ({ n })), skippedLines: [], tornTail: false });

describe('JSON lines', () => {
  it('reads back what was appended, in order', async () => {
    const file = join(await tempDir(), 'log.jsonl');
    await appendJsonLines(file, [{ n: 1 }, { n: 2 }]);
    await appendJsonLines(file, [{ n: 3 }]);
    expect(await readJsonLines(file, record)).toEqual(cleanRead(1, 2, 3));
  });

  it('treats a missing file as empty', async () => {
    expect(await readJsonLines(join(await tempDir(), 'none.jsonl'), record)).toEqual(cleanRead());
  });

  it('skips a torn last line and keeps appending cleanly after it', async () => {
    const file = join(await tempDir(), 'log.jsonl');
    await appendJsonLines(file, [{ n: 1 }, { n: 2 }]);
    const whole = await readFile(file, 'utf8');
    // A crash in the middle of writing the third record.
    await writeFile(file, `${whole}{"n": 3`);
    expect(await readJsonLines(file, record)).toEqual({
      records: [{ n: 1 }, { n: 2 }],
      skippedLines: [3],
      tornTail: true,
    });
    // Another process's line, seen half-written, or one a crash tore: it is left as it is, and the
    // next record starts on a line of its own instead of gluing onto it.
    await appendJsonLines(file, [{ n: 4 }]);
    expect(await readFile(file, 'utf8')).toBe(`${whole}{"n": 3\n{"n":4}\n`);
    expect(await readJsonLines(file, record)).toEqual({
      records: [{ n: 1 }, { n: 2 }, { n: 4 }],
      skippedLines: [3],
      tornTail: false,
    });
  });

  it('appends in this thread after a line it did not end, on a line of its own, cutting nothing', async () => {
    const file = join(await tempDir(), 'audit.jsonl');
    appendJsonLinesSync(file, [{ n: 1 }]);
    // Another process's line, seen half-written (or one a crash tore): it is left as it is.
    await appendFile(file, '{"n": 2');
    appendJsonLinesSync(file, [{ n: 3 }, { n: 4 }]);
    expect(await readFile(file, 'utf8')).toBe('{"n":1}\n{"n": 2\n{"n":3}\n{"n":4}\n');
    expect(await readJsonLines(file, record)).toEqual({
      records: [{ n: 1 }, { n: 3 }, { n: 4 }],
      skippedLines: [2],
      tornTail: false,
    });
  });

  it('skips lines that are JSON but not records', async () => {
    const file = join(await tempDir(), 'log.jsonl');
    await appendFile(file, '{"n":1}\n{"x":2}\n[]\n{"n":5}\n');
    expect(await readJsonLines(file, record)).toEqual({
      records: [{ n: 1 }, { n: 5 }],
      skippedLines: [2, 3],
      tornTail: false,
    });
  });
});
