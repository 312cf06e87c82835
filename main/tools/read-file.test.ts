import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { containing, matching } from '../test-support/tool-kit';
import { readText } from '../test-support/read-text';
import { useToolKits } from '../test-support/use-tool-kits';

const newKit = useToolKits();

const numbered = (count: number, width = 0) =>
  Array.from({ length: count }, (_, i) => `line ${i + 1}${'x'.repeat(width)}`).join('\n') + '\n';

describe('read_file', () => {
  it('reads a small text file whole', async () => {
    const kit = await newKit({ files: { 'a.txt': 'one\ntwo\nthree\n' } });
    const result = await readText(kit, { path: 'a.txt' });
    expect(result).toEqual({
      ok: true,
      value: containing({
        content: 'one\ntwo\nthree',
        total_lines: 3,
        lines_read: 3,
        truncated: false,
        encoding: 'utf-8',
      }),
    });
    expect(result.ok && 'next_start_line' in result.value).toBe(false);
  });

  it('caps the output by lines and says how to continue', async () => {
    const kit = await newKit({ limits: { maxOutputLines: 5 }, files: { 'a.txt': numbered(12) } });
    const result = await readText(kit, { path: 'a.txt' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value).toMatchObject({
      start_line: 1,
      end_line: 5,
      lines_read: 5,
      total_lines: 12,
      truncated: true,
      next_start_line: 6,
    });
    expect(result.value.content.split('\n')).toHaveLength(5);
    expect(result.value.notice).toBe('[Showing lines 1-5 of 12. Use start_line=6 to continue.]');
    const next = await readText(kit, { path: 'a.txt', start_line: 6 });
    expect(next.ok && next.value.content.split('\n')[0]).toBe('line 6');
  });

  it('caps the output by bytes without cutting a line', async () => {
    const kit = await newKit({ limits: { maxOutputBytes: 100 }, files: { 'a.txt': numbered(50, 20) } });
    const result = await readText(kit, { path: 'a.txt' });
    if (!result.ok) throw new Error(result.error.message);
    expect(Buffer.byteLength(result.value.content)).toBeLessThanOrEqual(100);
    expect(result.value.content.split('\n').every((line) => /^line \d+x{20}$/.test(line))).toBe(true);
    expect(result.value.truncated).toBe(true);
  });

  it('shows the start of a single line longer than the byte cap, and says so', async () => {
    const kit = await newKit({ limits: { maxOutputBytes: 64 }, files: { 'min.js': `${'é'.repeat(500)}\nnext\n` } });
    for (const args of [{ path: 'min.js' }, { path: 'min.js', start_line: 1 }]) {
      const result = await readText(kit, args);
      if (!result.ok) throw new Error(result.error.message);
      expect(Buffer.byteLength(result.value.content)).toBeLessThanOrEqual(64);
      expect(result.value.content).toMatch(/^é+$/);
      expect(result.value.notice).toMatch(/Line 1 is longer than the output limit/);
      expect(result.value.next_start_line).toBe(2);
    }
  });

  it('serves a line range from a file bigger than the read cap, across chunk boundaries', async () => {
    const kit = await newKit({ limits: { maxReadBytes: 1000 } });
    // ~3.4 MB: several 1 MB chunks, so lines straddle chunk borders.
    await writeFile(join(kit.workspace, 'big.log'), numbered(200_000, 4));
    const whole = await readText(kit, { path: 'big.log' });
    expect(whole.ok).toBe(false);
    if (!whole.ok) {
      expect(whole.error.code).toBe('file_too_large');
      expect(whole.error.message).toMatch(/start_line and end_line/);
    }
    const range = await readText(kit, { path: 'big.log', start_line: 150_000, end_line: 150_002 });
    expect(range).toEqual({
      ok: true,
      value: containing({
        content: 'line 150000xxxx\nline 150001xxxx\nline 150002xxxx',
        total_lines: 200_000,
        lines_read: 3,
        end_line: 150_002,
        truncated: false,
      }),
    });
  });

  it('says when start_line is past the end', async () => {
    const kit = await newKit({ files: { 'a.txt': 'one\ntwo' } });
    const result = await readText(kit, { path: 'a.txt', start_line: 5 });
    expect(result).toEqual({
      ok: true,
      value: containing({ content: '', lines_read: 0, total_lines: 2, notice: matching(/past the end/) }),
    });
  });

  it('rejects end_line before start_line as invalid arguments', async () => {
    const kit = await newKit();
    const result = await readText(kit, { path: 'a.txt', start_line: 5, end_line: 2 });
    expect(result.ok || result.error.code).toBe('invalid_arguments');
    expect(result.ok || result.error.message).toMatch(/end_line/);
  });

  it('shows CRLF files with LF line ends and strips a UTF-8 BOM', async () => {
    const kit = await newKit();
    await writeFile(
      join(kit.workspace, 'w.txt'),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a\r\nb\r\n')]),
    );
    const result = await readText(kit, { path: 'w.txt' });
    expect(result.ok && result.value.content).toBe('a\nb');
    const ranged = await readText(kit, { path: 'w.txt', start_line: 1, end_line: 2 });
    expect(ranged.ok && ranged.value.content).toBe('a\nb');
  });

  it.each([
    ['utf-16le', 'Привет, 世界\nline two\n'],
    ['utf-16be', 'Grüße\nline two\n'],
  ])('reads %s text with a BOM, whole and by range', async (encoding, text) => {
    const kit = await newKit({ files: { 'u16.txt': iconv.encode(text, encoding, { addBOM: true }) } });
    const whole = await readText(kit, { path: 'u16.txt' });
    expect(whole).toEqual({ ok: true, value: containing({ content: text.trimEnd(), encoding, total_lines: 2 }) });
    const second = await readText(kit, { path: 'u16.txt', start_line: 2 });
    expect(second.ok && second.value.content).toBe('line two');
  });

  it.each([
    ['windows-1251', 'Съешь же ещё этих мягких французских булок'],
    ['gbk', '我能吞下玻璃而不伤身体'],
    ['shift_jis', '私はガラスを食べられます'],
    ['latin1', 'Ça va très bien, naïve façade'],
  ])('reads %s when asked, and refuses it as UTF-8', async (encoding, text) => {
    const kit = await newKit({ files: { 'legacy.txt': iconv.encode(`${text}\n`, encoding) } });
    const asked = await readText(kit, { path: 'legacy.txt', encoding });
    expect(asked.ok && asked.value.content).toBe(text);
    const ranged = await readText(kit, { path: 'legacy.txt', encoding, start_line: 1 });
    expect(ranged.ok && ranged.value.content).toBe(text);
    const asUtf8 = await readText(kit, { path: 'legacy.txt' });
    expect(asUtf8.ok || asUtf8.error.code).toBe('encoding_error');
    expect(asUtf8.ok || asUtf8.error.message).toMatch(/pass it/);
  });

  it('refuses an unknown encoding name', async () => {
    const kit = await newKit({ files: { 'a.txt': 'x' } });
    const result = await readText(kit, { path: 'a.txt', encoding: 'klingon-8' });
    expect(result.ok || result.error.code).toBe('encoding_error');
  });

  it('refuses binary files other than pictures and PDFs, and points at get_file_info', async () => {
    const kit = await newKit();
    // An ELF header: binary, and none of the formats read_file shows (read-file-media.test.ts).
    await writeFile(join(kit.workspace, 'tool'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0]));
    const result = await readText(kit, { path: 'tool' });
    expect(result.ok || result.error.code).toBe('binary_file');
    expect(result.ok || result.error.message).toMatch(/get_file_info/);
  });

  it('answers file_not_found and not_a_file', async () => {
    const kit = await newKit();
    const missing = await readText(kit, { path: 'nope.txt' });
    expect(missing.ok || missing.error.code).toBe('file_not_found');
    const folder = await readText(kit, { path: '.' });
    expect(folder.ok || folder.error.code).toBe('not_a_file');
  });
});
