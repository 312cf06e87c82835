import { execFileSync } from 'node:child_process';
import { link, mkdir, mkdtemp, readFile, readdir, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { familiarPaths } from '../platform/storage/paths';
import { pathExists } from '../test-support/path-exists';
import { useTempDirs } from '../test-support/temp-dir';
import { createDirectoryTool } from './create-directory';
import { deleteFileTool } from './delete-file';
import { getFileInfoTool } from './get-file-info';
import { moveFileTool } from './move-file';
import { containing, matching } from '../test-support/tool-kit';
import { createDirectRunner } from '../test-support/direct-runner';
import { createToolEnvironment, createToolServices } from './kit/tool-services';
import { writeFileTool } from './write-file';
import { useToolKits } from '../test-support/use-tool-kits';
import { refused } from '../test-support/refused';
import { readText } from '../test-support/read-text';

const tempDir = useTempDirs();
const newKit = useToolKits();

describe('create_directory', () => {
  it('creates folders with their parents, or refuses without them', async () => {
    const kit = await newKit();
    expect(await kit.call(createDirectoryTool, { path: 'a/b/c' })).toEqual({
      ok: true,
      value: { path: 'a/b/c', created: true },
    });
    expect(await kit.call(createDirectoryTool, { path: 'x/y', parents: false })).toMatchObject(
      refused('parent_dir_not_found'),
    );
    expect(await kit.call(createDirectoryTool, { path: 'a/b' })).toMatchObject(refused('directory_exists'));
    await writeFile(join(kit.workspace, 'file'), '');
    expect(await kit.call(createDirectoryTool, { path: 'file' })).toMatchObject(refused('destination_exists'));
  });
});

describe('delete_file', () => {
  it('moves a deleted file to the trash, restorable, with where it came from', async () => {
    const kit = await newKit({ files: { 'old.txt': 'keep me' } });
    const result = await kit.call(deleteFileTool, { path: 'old.txt' });
    if (!result.ok) throw new Error(result.error.message);
    expect(await pathExists(join(kit.workspace, 'old.txt'))).toBe(false);
    expect(result.value.trash_path.startsWith(join(kit.home, 'trash'))).toBe(true);
    expect(await readFile(result.value.trash_path, 'utf8')).toBe('keep me');
    const manifest = JSON.parse(await readFile(join(result.value.trash_path, '..', 'restore.json'), 'utf8')) as Record<
      string,
      string
    >;
    expect(manifest).toMatchObject({ workspacePath: 'old.txt', action: 'trash' });
  });

  it('never keeps a hard link in the trash: a linked file (or one inside a folder) is trashed as a copy', async () => {
    const kit = await newKit();
    const outside = await tempDir('outside-');
    await writeFile(join(outside, 'secret.txt'), 'outside bytes');
    await mkdir(join(kit.workspace, 'dir'));
    await link(join(outside, 'secret.txt'), join(kit.workspace, 'linked.txt'));
    await link(join(outside, 'secret.txt'), join(kit.workspace, 'dir', 'inner.txt'));
    const file = await kit.call(deleteFileTool, { path: 'linked.txt' });
    const folder = await kit.call(deleteFileTool, { path: 'dir', recursive: true });
    if (!file.ok || !folder.ok) throw new Error('delete failed');
    expect((await stat(file.value.trash_path)).nlink).toBe(1);
    expect((await stat(join(folder.value.trash_path, 'inner.txt'))).nlink).toBe(1);
    expect((await stat(join(outside, 'secret.txt'))).nlink).toBe(1);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('outside bytes');
  });

  it('needs recursive for a non-empty folder, then takes it whole', async () => {
    const kit = await newKit();
    await mkdir(join(kit.workspace, 'dir/sub'), { recursive: true });
    await writeFile(join(kit.workspace, 'dir/sub/a.txt'), 'a');
    expect(await kit.call(deleteFileTool, { path: 'dir' })).toMatchObject({
      ok: false,
      error: { code: 'directory_not_empty', details: { entries: 1 } },
    });
    const result = await kit.call(deleteFileTool, { path: 'dir', recursive: true });
    expect(result.ok && result.value).toMatchObject({ type: 'directory', files: 1 });
    expect(await pathExists(join(kit.workspace, 'dir'))).toBe(false);
    await mkdir(join(kit.workspace, 'empty'));
    expect((await kit.call(deleteFileTool, { path: 'empty' })).ok).toBe(true);
  });

  it('deletes a symlink itself, never what it points to (even outside)', async () => {
    const kit = await newKit();
    const outside = join(kit.workspace, '..', 'outside.txt');
    await writeFile(outside, 'precious');
    await symlink(outside, join(kit.workspace, 'link'));
    const result = await kit.call(deleteFileTool, { path: 'link' });
    expect(result.ok && result.value.type).toBe('symlink');
    expect(await readFile(outside, 'utf8')).toBe('precious');
    expect(await pathExists(join(kit.workspace, 'link'))).toBe(false);
  });

  it('refuses a folder holding protected files, and the root', async () => {
    const kit = await newKit();
    await mkdir(join(kit.workspace, 'app/.git'), { recursive: true });
    await writeFile(join(kit.workspace, 'app/.env'), 'SECRET=1');
    const result = await kit.call(deleteFileTool, { path: 'app', recursive: true });
    expect(result.ok || result.error).toMatchObject({
      code: 'permission_denied',
      message: matching(/app\/\.(env|git)/),
    });
    expect(await pathExists(join(kit.workspace, 'app/.env'))).toBe(true);
    expect(await kit.call(deleteFileTool, { path: '.', recursive: true })).toMatchObject(refused('permission_denied'));
  });

  it('refuses a folder holding memory files while memory is off', async () => {
    const kit = await newKit({
      openPersona: true,
      isConcealed: (path) => path === 'MEMORY.md' || path.startsWith('memory'),
    });
    await mkdir(join(kit.personaDir, 'memory'), { recursive: true });
    await writeFile(join(kit.personaDir, 'memory', 'a.md'), 'x');
    expect(await kit.call(deleteFileTool, { path: 'memory', recursive: true })).toMatchObject({
      ok: false,
      error: { code: 'permission_denied', message: matching(/memory/) },
    });
  });

  it('answers file_not_found', async () => {
    const kit = await newKit();
    expect(await kit.call(deleteFileTool, { path: 'ghost' })).toMatchObject(refused('file_not_found'));
  });
});

describe('move_file', () => {
  it('renames and moves into new folders', async () => {
    const kit = await newKit({ files: { 'a.txt': 'A' } });
    expect(await kit.call(moveFileTool, { source: 'a.txt', destination: 'docs/archive/b.txt' })).toEqual({
      ok: true,
      value: { source: 'a.txt', destination: 'docs/archive/b.txt', type: 'file', overwritten: false },
    });
    expect(await readFile(join(kit.workspace, 'docs/archive/b.txt'), 'utf8')).toBe('A');
  });

  it('refuses an existing destination unless overwrite, which trashes the old one', async () => {
    const kit = await newKit({ files: { 'new.txt': 'new' } });
    await writeFile(join(kit.workspace, 'old.txt'), 'old');
    expect(await kit.call(moveFileTool, { source: 'new.txt', destination: 'old.txt' })).toMatchObject(
      refused('destination_exists'),
    );
    const result = await kit.call(moveFileTool, { source: 'new.txt', destination: 'old.txt', overwrite: true });
    if (!result.ok) throw new Error(result.error.message);
    expect(await readFile(join(kit.workspace, 'old.txt'), 'utf8')).toBe('new');
    expect(await readFile(result.value.trash_path!, 'utf8')).toBe('old');
    await mkdir(join(kit.workspace, 'folder'));
    await writeFile(join(kit.workspace, 'x.txt'), 'x');
    expect(await kit.call(moveFileTool, { source: 'x.txt', destination: 'folder', overwrite: true })).toMatchObject(
      refused('destination_exists'),
    );
  });

  it('refuses moving a folder into itself, or out of the workspace', async () => {
    const kit = await newKit();
    await mkdir(join(kit.workspace, 'dir'));
    expect(await kit.call(moveFileTool, { source: 'dir', destination: 'dir/inner' })).toMatchObject(
      refused('invalid_path'),
    );
    expect(await kit.call(moveFileTool, { source: 'dir', destination: '../dir' })).toMatchObject(
      refused('invalid_path'),
    );
    await symlink(join(kit.workspace, '..'), join(kit.workspace, 'up'));
    expect(await kit.call(moveFileTool, { source: 'dir', destination: 'up/stolen' })).toMatchObject(
      refused('symlink_escape'),
    );
  });

  it('moves a symlink as a link', async () => {
    const kit = await newKit({ files: { 'target.txt': 't' } });
    await symlink('target.txt', join(kit.workspace, 'link'));
    expect((await kit.call(moveFileTool, { source: 'link', destination: 'link2' })).ok).toBe(true);
    expect(await readlink(join(kit.workspace, 'link2'))).toBe('target.txt');
  });

  it('moves a file from the project into the persona overlay (memory/)', async () => {
    const kit = await newKit({ files: { 'note.md': 'remember this' } });
    expect((await kit.call(moveFileTool, { source: 'note.md', destination: 'memory/note.md' })).ok).toBe(true);
    expect(await readFile(join(kit.personaDir, 'memory/note.md'), 'utf8')).toBe('remember this');
    expect(await readdir(kit.workspace)).toEqual([]);
  });
});

describe('get_file_info', () => {
  it('describes a text file: size, lines, encoding, line endings', async () => {
    const kit = await newKit({ files: { 'a.txt': 'one\r\ntwo\r\nthree' } });
    const result = await kit.call(getFileInfoTool, { path: 'a.txt' });
    expect(result).toEqual({
      ok: true,
      value: containing({
        path: 'a.txt',
        type: 'file',
        size: 15,
        binary: false,
        encoding: 'ascii',
        line_count: 3,
        line_endings: 'crlf',
        mode: matching(/^[0-7]{3}$/),
      }),
    });
  });

  it.each([
    ['windows-1251', 'Съешь же ещё этих мягких французских булок, да выпей чаю'],
    ['gbk', '我能吞下玻璃而不伤身体。我能吞下玻璃而不伤身体。'],
    ['shift_jis', '私はガラスを食べられます。それは私を傷つけません。'],
  ])('guesses %s', async (encoding, text) => {
    const kit = await newKit({ files: { 'legacy.txt': iconv.encode(`${text}\n`, encoding) } });
    const result = await kit.call(getFileInfoTool, { path: 'legacy.txt' });
    expect(result.ok && result.value).toMatchObject({ encoding, line_count: 1 });
    // And the guess is what read_file needs.
    const read = await readText(kit, {
      path: 'legacy.txt',
      encoding: result.ok ? result.value.encoding! : '',
    });
    expect(read.ok && read.value.content).toBe(text);
  });

  it('marks binary files, counts folder entries, and describes special files without reading them', async () => {
    const kit = await newKit({ files: { 'b.bin': Buffer.from([0, 1, 2, 3]) } });
    await mkdir(join(kit.workspace, 'dir'));
    await writeFile(join(kit.workspace, 'dir', 'x'), '');
    execFileSync('mkfifo', [join(kit.workspace, 'pipe')]);
    expect(
      (await kit.call(getFileInfoTool, { path: 'b.bin' })).ok && (await kit.call(getFileInfoTool, { path: 'b.bin' })),
    ).toMatchObject({
      value: { binary: true, encoding: 'binary' },
    });
    expect(await kit.call(getFileInfoTool, { path: 'dir' })).toMatchObject({
      ok: true,
      value: { type: 'directory', entries: 1 },
    });
    expect(await kit.call(getFileInfoTool, { path: 'pipe' })).toMatchObject({ ok: true, value: { type: 'other' } });
  });

  it('names a symlink target inside the workspace, and not one outside', async () => {
    const kit = await newKit();
    await mkdir(join(kit.workspace, 'src'));
    await writeFile(join(kit.workspace, 'src/real.ts'), '');
    await symlink('src/real.ts', join(kit.workspace, 'alias.ts'));
    await symlink('/etc/hostname', join(kit.workspace, 'out'));
    expect(await kit.call(getFileInfoTool, { path: 'alias.ts' })).toMatchObject({
      ok: true,
      value: { type: 'symlink', target: 'src/real.ts', target_type: 'file' },
    });
    const outside = await kit.call(getFileInfoTool, { path: 'out' });
    expect(outside.ok && outside.value).toMatchObject({ type: 'symlink', notice: matching(/outside the workspace/) });
    expect(JSON.stringify(outside)).not.toContain('/etc/hostname');
  });

  it('counts the lines of a file bigger than the read cap by streaming it', async () => {
    const kit = await newKit({ limits: { maxReadBytes: 100 } });
    await kit.call(writeFileTool, { path: 'big.log', content: 'line\n'.repeat(10_000) });
    expect(await kit.call(getFileInfoTool, { path: 'big.log' })).toMatchObject({
      ok: true,
      value: { line_count: 10_000, size: 50_000 },
    });
  });
});

describe('across file systems', () => {
  it('moves into the persona folder and deletes into the trash when Familiar’s home is on another device', async () => {
    // /dev/shm is a tmpfs on Linux: a home there and a project in the temp dir are two devices, so
    // rename fails with EXDEV and the copy-then-remove path runs.
    const home = await mkdtemp(join('/dev/shm', 'familiar-home-'));
    const project = await tempDir();
    const services = createToolServices({ paths: familiarPaths(home), workerThreads: 1 });
    try {
      await mkdir(familiarPaths(home).defaultWorkspace, { recursive: true });
      const env = await createToolEnvironment({ services, workspaceRoot: project });
      const runner = createDirectRunner();
      const ctx = { conversationId: 'c', signal: new AbortController().signal, env };
      expect((await stat(home)).dev).not.toBe((await stat(project)).dev);
      await mkdir(join(project, 'notes'));
      await writeFile(join(project, 'notes', 'a.md'), 'A');
      await symlink('a.md', join(project, 'notes', 'link'));
      expect((await runner.run(moveFileTool, { source: 'notes', destination: 'memory/notes' }, ctx)).ok).toBe(true);
      expect(await readFile(join(familiarPaths(home).defaultWorkspace, 'memory', 'notes', 'a.md'), 'utf8')).toBe('A');
      expect(await readlink(join(familiarPaths(home).defaultWorkspace, 'memory', 'notes', 'link'))).toBe('a.md');
      expect(await pathExists(join(project, 'notes'))).toBe(false);
      await writeFile(join(project, 'old.txt'), 'old');
      const deleted = await runner.run(deleteFileTool, { path: 'old.txt' }, ctx);
      expect(deleted.ok && (await readFile(deleted.value.trash_path, 'utf8'))).toBe('old');
      expect(await pathExists(join(project, 'old.txt'))).toBe(false);
    } finally {
      await services.dispose();
      await rm(home, { recursive: true, force: true });
    }
  });
});
