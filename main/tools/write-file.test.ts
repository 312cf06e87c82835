import { chmod, mkdir, open, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { readFileTool } from './read-file';
import { containing } from '../test-support/tool-kit';
import { useToolKits } from '../test-support/use-tool-kits';
import { writeFileTool } from './write-file';
import { refused } from '../test-support/refused';
import { rewrittenAfterRead } from '../test-support/rewritten-after-read';

const newKit = useToolKits();

describe('write_file', () => {
  it('replaces a file too big to read (64 GB, sparse) without holding it in memory', async () => {
    const kit = await newKit();
    const file = join(kit.workspace, 'huge.log');
    const handle = await open(file, 'w');
    await handle.truncate(64 * 2 ** 30);
    await handle.close();
    const result = await kit.call(writeFileTool, { path: 'huge.log', content: 'small\n', backup: false });
    expect(result.ok || result.error.message).toBe(true);
    expect(await readFile(file, 'utf8')).toBe('small\n');
  });

  it('creates a file and its missing folders', async () => {
    const kit = await newKit();
    const result = await kit.call(writeFileTool, { path: 'src/deep/new.ts', content: 'export {};\n' });
    expect(result).toEqual({
      ok: true,
      value: { path: 'src/deep/new.ts', bytes_written: 11, created: true, encoding: 'utf-8' },
    });
    expect(await readFile(join(kit.workspace, 'src/deep/new.ts'), 'utf8')).toBe('export {};\n');
  });

  it('answers parent_dir_not_found with create_dirs: false', async () => {
    const kit = await newKit();
    const result = await kit.call(writeFileTool, { path: 'missing/new.ts', content: 'x', create_dirs: false });
    expect(result.ok || result.error.code).toBe('parent_dir_not_found');
    expect(await readdir(kit.workspace)).toEqual([]);
  });

  it('overwrites atomically, keeps the mode, and keeps the old version restorable outside the workspace', async () => {
    const kit = await newKit();
    const file = join(kit.workspace, 'run.sh');
    await writeFile(file, '#!/bin/sh\necho old\n');
    await chmod(file, 0o750);
    const result = await kit.call(writeFileTool, { path: 'run.sh', content: '#!/bin/sh\necho new\n' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.created).toBe(false);
    expect(await readFile(file, 'utf8')).toBe('#!/bin/sh\necho new\n');
    expect((await stat(file)).mode & 0o777).toBe(0o750);
    const backup = result.value.backup_path!;
    expect(backup.startsWith(join(kit.home, 'backups'))).toBe(true);
    expect(await readFile(backup, 'utf8')).toBe('#!/bin/sh\necho old\n');
    const manifest = JSON.parse(await readFile(join(backup, '..', 'restore.json'), 'utf8')) as Record<string, string>;
    expect(manifest).toMatchObject({ workspacePath: 'run.sh', original: file, action: 'backup' });
    // No temp files or backups left in the workspace.
    expect(await readdir(kit.workspace)).toEqual(['run.sh']);
  });

  it('skips the backup when asked', async () => {
    const kit = await newKit({ files: { 'a.txt': 'old' } });
    const result = await kit.call(writeFileTool, { path: 'a.txt', content: 'new', backup: false });
    expect(result.ok && 'backup_path' in result.value).toBe(false);
  });

  it('refuses content over the size cap with file_too_large', async () => {
    const kit = await newKit({ limits: { maxWriteBytes: 1024 } });
    const result = await kit.call(writeFileTool, { path: 'big.txt', content: 'x'.repeat(1025) });
    expect(result.ok || result.error.code).toBe('file_too_large');
    expect(await readdir(kit.workspace)).toEqual([]);
  });

  it('writes the encoding asked for, and keeps a BOM file in its encoding by default', async () => {
    const kit = await newKit();
    await kit.call(writeFileTool, { path: 'ru.txt', content: 'Привет', encoding: 'windows-1251' });
    expect(await readFile(join(kit.workspace, 'ru.txt'))).toEqual(iconv.encode('Привет', 'windows-1251'));
    await kit.call(writeFileTool, { path: 'u16.txt', content: 'hi', encoding: 'utf-16le' });
    expect(await readFile(join(kit.workspace, 'u16.txt'))).toEqual(Buffer.from([0xff, 0xfe, 0x68, 0, 0x69, 0]));
    await kit.call(writeFileTool, { path: 'u16.txt', content: 'yo' });
    expect(await readFile(join(kit.workspace, 'u16.txt'))).toEqual(Buffer.from([0xff, 0xfe, 0x79, 0, 0x6f, 0]));
    const lossy = await kit.call(writeFileTool, { path: 'ru.txt', content: '日本', encoding: 'windows-1251' });
    expect(lossy.ok || lossy.error.code).toBe('encoding_error');
  });

  it('refuses to clobber a file the user changed since the assistant read it', async () => {
    const kit = await newKit();
    const file = await rewrittenAfterRead(kit, 'notes.md', 'v1', 'v2 by the user');
    const result = await kit.call(writeFileTool, { path: 'notes.md', content: 'v3 by the assistant' });
    expect(result.ok || result.error.code).toBe('concurrent_modification');
    expect(await readFile(file, 'utf8')).toBe('v2 by the user');
    // After reading again, the write goes through; and its own write does not count as a change.
    await kit.call(readFileTool, { path: 'notes.md' });
    expect((await kit.call(writeFileTool, { path: 'notes.md', content: 'v3' })).ok).toBe(true);
    expect((await kit.call(writeFileTool, { path: 'notes.md', content: 'v4' })).ok).toBe(true);
  });

  it('takes a file touched without a change as unchanged (the hash decides)', async () => {
    const kit = await newKit();
    await rewrittenAfterRead(kit, 'same.txt', 'same', 'same');
    expect((await kit.call(writeFileTool, { path: 'same.txt', content: 'next' })).ok).toBe(true);
  });

  it('previews before/after for the approval dialog and writes the text the user edited', async () => {
    const kit = await newKit({ files: { 'a.md': 'old\n' } });
    const preview = await kit.runner.prepare(writeFileTool, { path: 'a.md', content: 'model text\n' }, kit.ctx());
    expect(preview).toEqual({
      ok: true,
      value: containing({
        before: 'old\n',
        after: 'model text\n',
        summary: 'Replace the content of a.md (1 → 1 lines)',
      }),
    });
    const created = await kit.runner.prepare(writeFileTool, { path: 'b.md', content: 'x\ny\n' }, kit.ctx());
    expect(created.ok && created.value).toMatchObject({ before: '', summary: 'Create b.md (2 lines)' });
    expect(await readdir(kit.workspace)).toEqual(['a.md']);
    const result = await kit.call(
      writeFileTool,
      { path: 'a.md', content: 'model text\n' },
      { editedContent: 'user text\n', shownBefore: 'old\n' },
    );
    expect(result.ok).toBe(true);
    expect(await readFile(join(kit.workspace, 'a.md'), 'utf8')).toBe('user text\n');
  });

  it('refuses a folder as the target', async () => {
    const kit = await newKit();
    await mkdir(join(kit.workspace, 'dir'));
    expect(await kit.call(writeFileTool, { path: 'dir', content: 'x' })).toMatchObject(refused('not_a_file'));
    expect(await kit.call(writeFileTool, { path: '.', content: 'x' })).toMatchObject(refused('not_a_file'));
  });

  it('serializes concurrent writes to one file: the result is one of the contents, whole', async () => {
    const kit = await newKit();
    const contents = Array.from({ length: 8 }, (_, i) => String(i).repeat(100_000));
    const results = await Promise.all(
      contents.map((content, i) => kit.call(writeFileTool, { path: 'race.txt', content }, undefined, `c${i}`)),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    expect(contents).toContain(await readFile(join(kit.workspace, 'race.txt'), 'utf8'));
  });
});
