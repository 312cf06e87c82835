import { open, readFile, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { familiarPaths } from '../platform/storage/paths';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { editFileTool } from './edit-file';
import { readFileTool } from './read-file';
import { useToolKits } from '../test-support/use-tool-kits';
import { refused } from '../test-support/refused';
import { rewrittenAfterRead } from '../test-support/rewritten-after-read';

const newKit = useToolKits();

describe('edit_file', () => {
  it('edits, returns a unified diff of the change and keeps a backup', async () => {
    const kit = await newKit();
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    await writeFile(join(kit.workspace, 'a.txt'), `${lines.join('\n')}\n`);
    const result = await kit.call(editFileTool, { path: 'a.txt', oldText: 'line 10\n', newText: 'line ten\n' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.diff).toBe(
      [
        '--- a.txt',
        '+++ a.txt',
        '@@ -7,7 +7,7 @@',
        ' line 7',
        ' line 8',
        ' line 9',
        '-line 10',
        '+line ten',
        ' line 11',
        ' line 12',
        ' line 13',
        '',
      ].join('\n'),
    );
    expect(result.value).toMatchObject({ matched_by: 'exact', start_line: 10 });
    expect(await readFile(join(kit.workspace, 'a.txt'), 'utf8')).toContain('line 9\nline ten\nline 11');
    expect(await readFile(result.value.backup_path!, 'utf8')).toContain('line 9\nline 10\nline 11');
  });

  it('replaces the file only once its backup is whole: a backup that cannot be made leaves it untouched', async () => {
    const kit = await newKit();
    await writeFile(join(kit.workspace, 'a.txt'), 'one\ntwo\n');
    // The backups folder is a file: no slot can be made in it.
    await writeFile(familiarPaths(kit.home).backups, 'not a folder');
    const result = await kit.call(editFileTool, { path: 'a.txt', oldText: 'two', newText: 'TWO' });
    expect(result.ok).toBe(false);
    expect(await readFile(join(kit.workspace, 'a.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(await readdir(kit.workspace)).toEqual(['a.txt']); // no temp file left behind
  });

  it('keeps a UTF-8 BOM, CRLF endings and every byte outside the span', async () => {
    const kit = await newKit();
    const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('first\r\nsecond\r\nthird   \r\n')]);
    await writeFile(join(kit.workspace, 'w.txt'), original);
    const result = await kit.call(editFileTool, { path: 'w.txt', oldText: 'second\nthird', newText: 'SECOND\nTHIRD' });
    expect(result.ok).toBe(true);
    expect(await readFile(join(kit.workspace, 'w.txt'))).toEqual(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('first\r\nSECOND\r\nTHIRD   \r\n')]),
    );
  });

  it.each([
    ['windows-1251', 'Привет мир\nвторая строка\n', 'вторая', 'третья'],
    ['gbk', '你好世界\n第二行\n', '第二', '第三'],
    ['shift_jis', 'こんにちは\n二行目\n', '二行目', '三行目'],
  ])('edits %s text in its own encoding (as read_file read it)', async (encoding, text, from, to) => {
    const kit = await newKit({ files: { 'legacy.txt': iconv.encode(text, encoding) } });
    const read = await kit.call(readFileTool, { path: 'legacy.txt', encoding });
    expect(read.ok).toBe(true);
    const result = await kit.call(editFileTool, { path: 'legacy.txt', oldText: from, newText: to });
    expect(result.ok || result.error.message).toBe(true);
    expect(await readFile(join(kit.workspace, 'legacy.txt'))).toEqual(iconv.encode(text.replace(from, to), encoding));
  });

  it('edits UTF-16 with a BOM and keeps it UTF-16', async () => {
    const kit = await newKit({ files: { 'u.txt': iconv.encode('alpha\r\nbeta\r\n', 'utf-16le', { addBOM: true }) } });
    const result = await kit.call(editFileTool, { path: 'u.txt', oldText: 'beta', newText: 'gamma' });
    expect(result.ok).toBe(true);
    expect(await readFile(join(kit.workspace, 'u.txt'))).toEqual(
      iconv.encode('alpha\r\ngamma\r\n', 'utf-16le', { addBOM: true }),
    );
  });

  it('shows the closest lines with a caret and a hint on no_match', async () => {
    const kit = await newKit({ files: { 'c.ts': 'function add(a, b) {\n    return a + b;\n}\n' } });
    const result = await kit.call(editFileTool, { path: 'c.ts', oldText: 'return a - b;', newText: 'return a * b;' });
    expect(result.ok || result.error.code).toBe('no_match');
    const message = result.ok ? '' : result.error.message;
    expect(message).toContain('line 2:     return a + b;');
    // The caret sits under the first difference ('+' against '-').
    const lines = message.split('\n');
    const shown = lines.findIndex((line) => line.includes('line 2:'));
    expect(lines[shown + 1]!.indexOf('^')).toBe(lines[shown]!.indexOf('+'));
    expect(message).toMatch(/start_line=1/);

    const escaped = await kit.call(editFileTool, {
      path: 'c.ts',
      oldText: 'function add(a, b) {\\n    return a + c;',
      newText: 'x',
    });
    expect(escaped.ok || escaped.error.code).toBe('no_match');
  });

  it('hints at indentation when only the indentation differs', async () => {
    const kit = await newKit({ files: { 'i.py': 'def f():\n    return 1\n\ndef g():\n    return 1\n' } });
    const result = await kit.call(editFileTool, { path: 'i.py', oldText: 'def f():\n  return 2', newText: 'x' });
    expect(result.ok || result.error.message).toMatch(/Hint: The text matches but its indentation differs/);
  });

  it('refuses with concurrent_modification when the file changed since it was read', async () => {
    const kit = await newKit();
    const file = await rewrittenAfterRead(kit, 'a.txt', 'one\ntwo\n', 'one\ntwo\nthree (the user typed this)\n');
    const result = await kit.call(editFileTool, { path: 'a.txt', oldText: 'two', newText: 'TWO' });
    expect(result.ok || result.error.code).toBe('concurrent_modification');
    expect(await readFile(file, 'utf8')).toBe('one\ntwo\nthree (the user typed this)\n');
    // Another conversation never read it: no stale state there.
    const other = await kit.call(editFileTool, { path: 'a.txt', oldText: 'two', newText: 'TWO' }, undefined, 'c2');
    expect(other.ok).toBe(true);
  });

  it('edits files of several MB, one after another and at once, each read into memory lent to it alone', async () => {
    const kit = await newKit();
    // 2.5 MB each: the read-back compares them a MB at a time, across the pieces' boundaries.
    const big = (tag: string) => `${'x'.repeat(1_300_000)}\n${tag} marker\n${'y'.repeat(1_200_000)}\n`;
    for (const name of ['a.txt', 'b.txt', 'c.txt']) await writeFile(join(kit.workspace, name), big(name));
    const first = await kit.call(editFileTool, { path: 'a.txt', oldText: 'a.txt marker', newText: 'A' });
    expect(first.ok || first.error.message).toBe(true);
    const both = await Promise.all([
      kit.call(editFileTool, { path: 'b.txt', oldText: 'b.txt marker', newText: 'B' }),
      kit.call(editFileTool, { path: 'c.txt', oldText: 'c.txt marker', newText: 'C' }),
    ]);
    expect(both.map((result) => result.ok || result.error.message)).toEqual([true, true]);
    for (const [name, tag] of [
      ['a.txt', 'A'],
      ['b.txt', 'B'],
      ['c.txt', 'C'],
    ] as const) {
      expect(await readFile(join(kit.workspace, name), 'utf8')).toBe(big(name).replace(`${name} marker`, tag));
    }
  });

  it('refuses with concurrent_modification when the file does not read back as written', async () => {
    const kit = await newKit();
    const file = join(kit.workspace, 'a.txt');
    const content = `${'x'.repeat(2_300_000)}\nmarker\n`;
    const sandbox = kit.env.sandbox;
    const write = sandbox.writeFileAtomic.bind(sandbox);
    // Something else writes the file right after Familiar's write: the same size with one byte
    // changed past the first MB, then another size.
    for (const [name, meddle] of [
      ['same size', (now: string) => now.slice(0, 2_000_000) + 'Z' + now.slice(2_000_001)],
      ['another size', (now: string) => `${now}more\n`],
    ] as const) {
      await writeFile(file, content);
      sandbox.writeFileAtomic = async (...args) => {
        const written = await write(...args);
        await writeFile(file, meddle(await readFile(file, 'utf8')));
        return written;
      };
      const result = await kit.call(editFileTool, { path: 'a.txt', oldText: 'marker', newText: 'M' });
      expect(result.ok || result.error.code, name).toBe('concurrent_modification');
      expect(result.ok || result.error.message, name).toMatch(/did not read back as written/);
    }
    sandbox.writeFileAtomic = write;
  });

  it('notices a same-size rewrite in place whose mtime was put back', async () => {
    const kit = await newKit();
    const file = join(kit.workspace, 'a.txt');
    await writeFile(file, 'one\ntwo\n');
    const stamp = 1_700_000_000; // whole seconds: put back exactly
    await utimes(file, stamp, stamp);
    expect((await kit.call(readFileTool, { path: 'a.txt' })).ok).toBe(true);
    const before = await stat(file);
    const handle = await open(file, 'r+');
    await handle.write('ONE', 0); // same size, same inode
    await handle.close();
    await utimes(file, stamp, stamp);
    expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
    const result = await kit.call(editFileTool, { path: 'a.txt', oldText: 'two', newText: 'TWO' });
    expect(result.ok || result.error.code).toBe('concurrent_modification');
    expect(await readFile(file, 'utf8')).toBe('ONE\ntwo\n');
  });

  it('writes exactly the text the user edited in the approval dialog', async () => {
    const kit = await newKit();
    const file = join(kit.workspace, 'SOUL.md');
    await writeFile(join(kit.personaDir, 'SOUL.md'), 'I am calm.\n');
    const preview = await kit.runner.prepare(
      editFileTool,
      { path: 'SOUL.md', oldText: 'calm', newText: 'curious' },
      kit.ctx(),
    );
    if (!preview.ok) throw new Error(preview.error.message);
    expect(preview.value).toMatchObject({ before: 'I am calm.\n', after: 'I am curious.\n' });
    const result = await kit.call(
      editFileTool,
      { path: 'SOUL.md', oldText: 'calm', newText: 'curious' },
      { editedContent: 'I am calm and curious.\n', shownBefore: preview.value.before! },
    );
    expect(result.ok && result.value.matched_by).toBe('user');
    expect(await readFile(join(kit.personaDir, 'SOUL.md'), 'utf8')).toBe('I am calm and curious.\n');
    // The persona overlay: nothing was written into the project folder.
    expect(await readdir(kit.workspace)).toEqual([]);
    expect(file.startsWith(kit.workspace)).toBe(true);
  });

  it('refuses when the file no longer matches what the dialog showed', async () => {
    const kit = await newKit({ files: { 'n.txt': 'draft 2\n' } });
    const result = await kit.call(
      editFileTool,
      { path: 'n.txt', oldText: 'draft', newText: 'final' },
      { shownBefore: 'draft 1\n' },
    );
    expect(result.ok || result.error.code).toBe('concurrent_modification');
    expect(await readFile(join(kit.workspace, 'n.txt'), 'utf8')).toBe('draft 2\n');
  });

  it('refuses binary files, missing files and an empty oldText', async () => {
    const kit = await newKit({ files: { 'b.bin': Buffer.from([1, 0, 2, 0]) } });
    expect(await kit.call(editFileTool, { path: 'b.bin', oldText: 'x', newText: 'y' })).toMatchObject(
      refused('binary_file'),
    );
    expect(await kit.call(editFileTool, { path: 'nope.txt', oldText: 'x', newText: 'y' })).toMatchObject(
      refused('file_not_found'),
    );
    expect(await kit.call(editFileTool, { path: 'b.bin', oldText: '', newText: 'y' })).toMatchObject(
      refused('invalid_arguments'),
    );
  });
});
