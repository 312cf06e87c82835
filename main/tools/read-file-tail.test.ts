import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { matching } from '../test-support/tool-kit';
import { readText } from '../test-support/read-text';
import { useToolKits } from '../test-support/use-tool-kits';

const newKit = useToolKits();

/** Mulberry32, so the generated lines are the same every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Lines of 0 to ~3,000 bytes, so lines straddle the 64 KB blocks read backwards. */
function generatedLines(count: number, seed: number): string[] {
  const random = prng(seed);
  return Array.from({ length: count }, (_, i) =>
    random() < 0.05 ? '' : `${i + 1}:${'é-x'.repeat(Math.floor(random() * random() * 1000))}`,
  );
}

describe('read_file counted from the end', () => {
  it('reads the last lines without counting the file, and says so', async () => {
    const kit = await newKit();
    const lines = generatedLines(3000, 1);
    await writeFile(join(kit.workspace, 'app.log'), `${lines.join('\n')}\n`);
    const result = await readText(kit, { path: 'app.log', start_line: -50 });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.content).toBe(lines.slice(-50).join('\n'));
    expect(result.value).toMatchObject({ start_line: -50, end_line: -1, lines_read: 50, truncated: false });
    expect('total_lines' in result.value).toBe(false);
    expect(result.value.notice).toMatch(/counted from the end.*total_lines is not given/);
  });

  it('agrees with the lines of the text for every window, with and without a final newline', async () => {
    const kit = await newKit({ limits: { maxOutputLines: 100_000, maxOutputBytes: 100_000_000 } });
    const lines = generatedLines(600, 2);
    for (const [name, text] of [
      ['nl.txt', `${lines.join('\n')}\n`],
      ['bare.txt', lines.join('\n')],
      ['blank-end.txt', `${lines.join('\n')}\n\n`],
      ['crlf.txt', `${lines.join('\r\n')}\r\n`],
    ] as const) {
      await writeFile(join(kit.workspace, name), text);
      const expected = text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
      for (const [from, to] of [
        [1, 1],
        [2, 1],
        [37, 5],
        [300, 299],
        [expected.length, 1],
        [expected.length - 1, 2],
      ] as const) {
        const result = await readText(kit, { path: name, start_line: -from, end_line: -to });
        if (!result.ok) throw new Error(result.error.message);
        expect(result.value.content, `${name} -${from}..-${to}`).toBe(
          expected.slice(expected.length - from, expected.length - to + 1).join('\n'),
        );
      }
    }
  });

  it('gives real line numbers and the total when the window reaches the start', async () => {
    const kit = await newKit({ files: { 'short.txt': 'one\ntwo\nthree\n' } });
    const result = await readText(kit, { path: 'short.txt', start_line: -10 });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value).toMatchObject({
      content: 'one\ntwo\nthree',
      start_line: 1,
      end_line: 3,
      total_lines: 3,
      truncated: false,
    });
    const empty = await writeFile(join(kit.workspace, 'empty.txt'), '').then(() =>
      readText(kit, { path: 'empty.txt', start_line: -5 }),
    );
    expect(empty.ok && empty.value).toMatchObject({ content: '', total_lines: 0, lines_read: 0 });
  });

  it('caps a long tail and tells where to continue, counting from the end', async () => {
    const kit = await newKit({ limits: { maxOutputLines: 5 } });
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i + 1}`);
    await writeFile(join(kit.workspace, 'a.log'), `${lines.join('\n')}\n`);
    const result = await readText(kit, { path: 'a.log', start_line: -4000 });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value).toMatchObject({
      content: lines.slice(1000, 1005).join('\n'),
      start_line: -4000,
      end_line: -3996,
      truncated: true,
      next_start_line: -3995,
      notice: matching(/Use start_line=-3995 to continue/),
    });
  });

  it('shows the start of a giant last line', async () => {
    const kit = await newKit({ limits: { maxOutputBytes: 64 }, files: { 'min.js': `first\n${'é'.repeat(200_000)}` } });
    const result = await readText(kit, { path: 'min.js', start_line: -1 });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.content).toMatch(/^é+$/);
    expect(Buffer.byteLength(result.value.content)).toBeLessThanOrEqual(64);
    expect(result.value.notice).toMatch(/longer than the output limit/);
  });

  it.each([
    ['utf-16le', 'Привет\nline two\nline three\n'],
    ['utf-8', 'bom\nline two\nline three'],
  ])('reads the end of %s text with a BOM', async (encoding, text) => {
    const kit = await newKit({ files: { 'b.txt': iconv.encode(text, encoding, { addBOM: true }) } });
    const result = await readText(kit, { path: 'b.txt', start_line: -2 });
    expect(result.ok && result.value.content).toBe('line two\nline three');
    const all = await readText(kit, { path: 'b.txt', start_line: -3 });
    expect(all.ok && all.value.content).toBe(text.trimEnd());
  });

  it.each([
    [{ start_line: 0 }, /start_line/],
    [{ start_line: 5, end_line: -1 }, /both count/],
    [{ end_line: -1 }, /both count/],
    [{ start_line: -5, end_line: 3 }, /both count/],
    [{ start_line: -5, end_line: -6 }, /end_line/],
  ])('refuses %j', async (args, message) => {
    const kit = await newKit();
    const result = await readText(kit, { path: 'a.txt', ...args });
    expect(result.ok || result.error.code).toBe('invalid_arguments');
    expect(result.ok || result.error.message).toMatch(message);
  });
});
