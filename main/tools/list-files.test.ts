import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempDirs } from '../test-support/temp-dir';
import { listFilesTool } from './list-files';
import { resultBound } from './kit/result-bound';
import { createToolKit, matching } from '../test-support/tool-kit';
import type { ToolKit } from '../test-support/tool-kit';

const tempDir = useTempDirs();
let kit: ToolKit;
afterEach(() => kit.dispose());

async function tree(root: string, files: Record<string, string>) {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

const paths = async (args: Parameters<ToolKit['call']>[1]) => {
  const result = await kit.call(listFilesTool, args as never);
  if (!result.ok) throw new Error(result.error.message);
  return result.value.entries.map((entry) => entry.path);
};

/**
 * A project with what a listing leaves out by default: git-ignored entries (one re-included by a
 * nested .gitignore), node_modules, .git and other hidden names.
 */
const projectWithIgnoredEntries = {
  '.gitignore': '*.log\nbuild/\n',
  'src/a.ts': '',
  'src/app.log': '',
  'src/keep/.gitignore': '!important.log\n',
  'src/keep/important.log': '',
  'src/keep/other.log': '',
  'build/out.js': '',
  'node_modules/m/index.js': '',
  '.git/HEAD': '',
  '.github/workflows/ci.yml': '',
  'z.txt': '',
};

describe('list_files', () => {
  it('lists one folder sorted, with types and sizes', async () => {
    kit = await createToolKit(tempDir);
    await tree(kit.workspace, { 'b.txt': 'bb', 'a/x.txt': 'x', 'c.md': '' });
    const result = await kit.call(listFilesTool, {});
    expect(result).toEqual({
      ok: true,
      value: {
        path: '.',
        truncated: false,
        entries: [
          { name: 'a', path: 'a', type: 'directory' },
          { name: 'b.txt', path: 'b.txt', type: 'file', size: 2 },
          { name: 'c.md', path: 'c.md', type: 'file', size: 0 },
        ],
      },
    });
  });

  it('lists recursively depth-first, honouring nested .gitignore files and skipping .git, node_modules and hidden names', async () => {
    kit = await createToolKit(tempDir);
    await tree(kit.workspace, projectWithIgnoredEntries);
    expect(await paths({ recursive: true })).toEqual([
      'src',
      'src/a.ts',
      'src/keep',
      'src/keep/important.log',
      'z.txt',
    ]);
    expect(await paths({ recursive: true, include_hidden: true })).toEqual([
      '.github',
      '.github/workflows',
      '.github/workflows/ci.yml',
      '.gitignore',
      'src',
      'src/a.ts',
      'src/keep',
      'src/keep/.gitignore',
      'src/keep/important.log',
      'z.txt',
    ]);
    // Asked for by path, ignored folders are listed.
    expect(await paths({ path: 'node_modules', recursive: true })).toEqual([
      'node_modules/m',
      'node_modules/m/index.js',
    ]);
    expect(await paths({ path: 'build' })).toEqual(['build/out.js']);
  });

  it('filters with a glob and caps with truncated', async () => {
    kit = await createToolKit(tempDir);
    await tree(
      kit.workspace,
      Object.fromEntries(
        Array.from({ length: 12 }, (_, i) => [`src/f${String(i).padStart(2, '0')}.${i % 2 === 0 ? 'ts' : 'md'}`, '']),
      ),
    );
    expect(await paths({ recursive: true, pattern: '*.ts' })).toHaveLength(6);
    expect(await paths({ recursive: true, pattern: 'src/f0*.md' })).toEqual([
      'src/f01.md',
      'src/f03.md',
      'src/f05.md',
      'src/f07.md',
      'src/f09.md',
    ]);
    const capped = await kit.call(listFilesTool, { recursive: true, max_entries: 3 });
    expect(capped.ok && capped.value).toMatchObject({ truncated: true, notice: matching(/first 3 entries/) });
    expect(capped.ok && capped.value.entries.map((entry) => entry.path)).toEqual(['src', 'src/f00.ts', 'src/f01.md']);
  });

  it("stops below the result's size cap, so the answer stays a whole object", async () => {
    kit = await createToolKit(tempDir, { limits: { maxResultChars: 4000 } });
    await tree(
      kit.workspace,
      Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`folder/file-${String(i).padStart(3, '0')}.txt`, ''])),
    );
    const result = await kit.call(listFilesTool, { recursive: true, max_entries: 10_000 });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value).toMatchObject({ truncated: true, notice: matching(/size limit/) });
    expect(JSON.stringify(result.value).length).toBeLessThanOrEqual(4000);
    expect(result.value.entries.length).toBeGreaterThan(20);
    expect(result.value.entries.map((entry) => entry.path).slice(0, 3)).toEqual([
      'folder',
      'folder/file-000.txt',
      'folder/file-001.txt',
    ]);
  });

  it('records a bound of its JSON that is never short, so the cap need not stringify it', async () => {
    kit = await createToolKit(tempDir);
    // Names JSON escapes (quote, backslash, control characters) and some it does not (accents, emoji).
    const names = ['plain.txt', 'say "hi".txt', 'back\\slash', 'tab\tand\u0001bell', 'été', '😀 smile', 'new\nline'];
    await tree(
      kit.workspace,
      Object.fromEntries(
        names.flatMap((name) => [
          [name, 'x'.repeat(12345)],
          [`dir "${name}"/${name}`, ''],
        ]),
      ),
    );
    await mkdir(join(kit.workspace, 'node_modules', 'pkg'), { recursive: true });
    for (const args of [
      { recursive: true },
      { recursive: true, sizes: true },
      { recursive: true, include_ignored: true },
      {},
      { path: 'dir "say "hi".txt"' },
      { recursive: true, max_entries: 3 },
      { path: 'dir "plain.txt"', pattern: 'none' },
    ]) {
      const result = await kit.call(listFilesTool, args);
      if (!result.ok) throw new Error(result.error.message);
      const chars = JSON.stringify(result.value).length;
      const bound = resultBound(result.value);
      expect(bound, JSON.stringify(args)).toBeGreaterThanOrEqual(chars);
      // Not a blind guess either: only sizes' digits are counted at their most.
      expect(bound, JSON.stringify(args)).toBeLessThanOrEqual(chars + 30 * result.value.entries.length + 10);
    }
  });

  it('reports symlinks without following them', async () => {
    kit = await createToolKit(tempDir);
    await tree(kit.workspace, { 'real/inner.txt': 'x' });
    await symlink(join(kit.workspace, 'real'), join(kit.workspace, 'link'));
    const result = await kit.call(listFilesTool, { recursive: true });
    expect(result.ok && result.value.entries.map((entry) => [entry.path, entry.type])).toEqual([
      ['link', 'symlink'],
      ['real', 'directory'],
      ['real/inner.txt', 'file'],
    ]);
  });

  it('shows the persona files at the root, shadowing the project’s own', async () => {
    kit = await createToolKit(tempDir);
    await tree(kit.personaDir, { 'SOUL.md': 'persona soul', 'USER.md': 'u', 'memory/2025-01-01.md': 'm' });
    await tree(kit.workspace, { 'SOUL.md': 'the project’s own soul (shadowed)', 'README.md': '' });
    const result = await kit.call(listFilesTool, { recursive: true, sizes: true });
    expect(result.ok && result.value.entries).toEqual([
      { name: 'README.md', path: 'README.md', type: 'file', size: 0 },
      { name: 'SOUL.md', path: 'SOUL.md', type: 'file', size: 12 },
      { name: 'USER.md', path: 'USER.md', type: 'file', size: 1 },
      { name: 'memory', path: 'memory', type: 'directory' },
      { name: '2025-01-01.md', path: 'memory/2025-01-01.md', type: 'file', size: 1 },
    ]);
  });

  it('never shows concealed memory files, by name', async () => {
    const concealed = (path: string) =>
      ['USER.md', 'MEMORY.md'].includes(path) || path === 'memory' || path.startsWith('memory/');
    kit = await createToolKit(tempDir, { isConcealed: concealed });
    await tree(kit.personaDir, { 'SOUL.md': 's', 'USER.md': 'u', 'MEMORY.md': 'm', 'memory/x.md': 'm' });
    expect(await paths({ recursive: true })).toEqual(['SOUL.md']);
    expect(await paths({ path: 'memory' }).catch((error: Error) => error.message)).toMatch(
      /memory off|switched memory off/,
    );
  });

  it('lists the persona folder itself when it is the workspace', async () => {
    kit = await createToolKit(tempDir, { openPersona: true });
    await tree(kit.personaDir, { 'SOUL.md': 's', 'notes/today.md': 't' });
    expect(await paths({ recursive: true })).toEqual(['SOUL.md', 'notes', 'notes/today.md']);
  });

  it('ignores a .gitignore that is a FIFO instead of hanging on it', async () => {
    kit = await createToolKit(tempDir);
    await tree(kit.workspace, { 'sub/deeper/a.txt': '' });
    execFileSync('mkfifo', [join(kit.workspace, '.gitignore')]);
    execFileSync('mkfifo', [join(kit.workspace, 'sub', '.gitignore')]);
    expect(await paths({ path: 'sub', recursive: true })).toEqual(['sub/deeper', 'sub/deeper/a.txt']);
    expect(await paths({ recursive: true })).toEqual(['sub', 'sub/deeper', 'sub/deeper/a.txt']);
  });

  it('answers not_a_directory and file_not_found', async () => {
    kit = await createToolKit(tempDir);
    await tree(kit.workspace, { 'a.txt': '' });
    expect(await kit.call(listFilesTool, { path: 'a.txt' })).toMatchObject({
      ok: false,
      error: { code: 'not_a_directory' },
    });
    expect(await kit.call(listFilesTool, { path: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'file_not_found' },
    });
  });

  it('stats big listings in the worker threads with the same result', async () => {
    kit = await createToolKit(tempDir, { limits: { maxResultChars: 1_000_000 } });
    await tree(
      kit.workspace,
      Object.fromEntries(
        Array.from({ length: 2600 }, (_, i) => [
          `d${Math.floor(i / 100)}/f${String(i).padStart(4, '0')}.txt`,
          'x'.repeat(i % 7),
        ]),
      ),
    );
    const result = await kit.call(listFilesTool, { recursive: true, max_entries: 5000, sizes: true });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.entries).toHaveLength(2626);
    const file = result.value.entries.find((entry) => entry.path === 'd25/f2599.txt');
    expect(file).toEqual({ name: 'f2599.txt', path: 'd25/f2599.txt', type: 'file', size: 2599 % 7 });
  });

  it('lists recursively without a stat per entry unless sizes are asked for', async () => {
    kit = await createToolKit(tempDir);
    await tree(kit.workspace, { 'a/x.txt': 'xx', 'b.txt': 'b' });
    const plain = await kit.call(listFilesTool, { recursive: true });
    expect(plain.ok && plain.value.entries).toEqual([
      { name: 'a', path: 'a', type: 'directory' },
      { name: 'x.txt', path: 'a/x.txt', type: 'file' },
      { name: 'b.txt', path: 'b.txt', type: 'file' },
    ]);
    const sized = await kit.call(listFilesTool, { recursive: true, sizes: true });
    expect(sized.ok && sized.value.entries.map((entry) => entry.size)).toEqual([undefined, 2, 1]);
  });

  it('includes git-ignored entries and node_modules, marked, only with include_ignored', async () => {
    kit = await createToolKit(tempDir);
    await tree(kit.workspace, projectWithIgnoredEntries);
    const marked = async (args: { include_ignored?: boolean }) => {
      const result = await kit.call(listFilesTool, { recursive: true, ...args });
      if (!result.ok) throw new Error(result.error.message);
      return result.value.entries.map((entry) => `${entry.path}${entry.ignored === true ? ' (ignored)' : ''}`);
    };
    expect((await marked({})).filter((entry) => entry.endsWith(' (ignored)'))).toEqual([]);
    expect(await marked({ include_ignored: true })).toEqual([
      'build (ignored)',
      'build/out.js (ignored)',
      'node_modules (ignored)',
      'node_modules/m (ignored)',
      'node_modules/m/index.js (ignored)',
      'src',
      'src/a.ts',
      'src/app.log (ignored)',
      'src/keep',
      'src/keep/important.log',
      'src/keep/other.log (ignored)',
      'z.txt',
    ]);
  });
});
