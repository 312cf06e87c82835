import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_LISTED_ENTRIES } from '../../../shared/ipc/workspace';
import { createAnchorRoots } from '../../platform/disk/anchor-roots';
import { useTempDirs } from '../../test-support/temp-dir';
import { listWorkspaceDir } from './list-dir';

const tempDir = useTempDirs();

async function project() {
  const base = await realpath(await tempDir('familiar-list-'));
  const root = join(base, 'project');
  const personaDir = join(base, 'home', 'workspace');
  await mkdir(join(root, 'src'), { recursive: true });
  await mkdir(join(personaDir, 'memory'), { recursive: true });
  await writeFile(join(personaDir, 'SOUL.md'), 'persona');
  await writeFile(join(personaDir, 'USER.md'), 'user');
  await writeFile(join(root, 'SOUL.md'), 'shadowed');
  const roots = { root, personaDir, anchors: createAnchorRoots() };
  const list = (path: string) => listWorkspaceDir(roots, path);
  return { base, root, personaDir, roots, list };
}

describe('listWorkspaceDir', () => {
  it('lists folders first, names in natural order, with sizes', async () => {
    const { root, list } = await project();
    await writeFile(join(root, 'file10.txt'), '0123456789');
    await writeFile(join(root, 'file2.txt'), '01');
    await mkdir(join(root, 'b-dir'));
    const listing = await list('');
    expect(listing.ok).toBe(true);
    if (!listing.ok) return;
    expect(listing.value.entries.map((entry) => [entry.name, entry.type, entry.size])).toEqual([
      ['b-dir', 'directory', 0],
      ['memory', 'directory', 0],
      ['src', 'directory', 0],
      ['file2.txt', 'file', 2],
      ['file10.txt', 'file', 10],
      ['SOUL.md', 'file', 7],
      ['USER.md', 'file', 4],
    ]);
  });

  it('shows the persona overlay at the root instead of the project’s own files of those names', async () => {
    const { list } = await project();
    const listing = await list('');
    if (!listing.ok) throw new Error(listing.error.message);
    const soul = listing.value.entries.find((entry) => entry.name === 'SOUL.md');
    expect(soul).toMatchObject({ path: 'SOUL.md', persona: true, size: 'persona'.length, ignored: false });
    expect(listing.value.entries.filter((entry) => entry.name === 'SOUL.md')).toHaveLength(1);
    expect(listing.value.entries.find((entry) => entry.name === 'src')).toMatchObject({ persona: false });
    // MEMORY.md does not exist in this persona folder: nothing is invented.
    expect(listing.value.entries.some((entry) => entry.name === 'MEMORY.md')).toBe(false);
  });

  it('lists memory/ from the persona folder', async () => {
    const { personaDir, list } = await project();
    await writeFile(join(personaDir, 'memory', '2025-02-03.md'), 'note');
    expect(await list('memory')).toMatchObject({
      ok: true,
      value: { path: 'memory', entries: [{ name: '2025-02-03.md', path: 'memory/2025-02-03.md', persona: true }] },
    });
  });

  it('marks .gitignore’d entries, with nested files, negations and .git', async () => {
    const { root, list } = await project();
    await writeFile(join(root, '.gitignore'), 'dist/\n*.log\n!keep.log\n');
    await mkdir(join(root, 'dist'));
    await mkdir(join(root, '.git'));
    await writeFile(join(root, 'a.log'), '');
    await writeFile(join(root, 'keep.log'), '');
    await writeFile(join(root, 'src', '.gitignore'), 'generated.ts\n');
    await writeFile(join(root, 'src', 'generated.ts'), '');
    await writeFile(join(root, 'src', 'main.ts'), '');
    await writeFile(join(root, 'dist', 'bundle.js'), '');
    const ignoredNames = async (path: string) => {
      const listing = await list(path);
      if (!listing.ok) throw new Error(listing.error.message);
      return listing.value.entries.filter((entry) => entry.ignored).map((entry) => entry.name);
    };
    expect(await ignoredNames('')).toEqual(['.git', 'dist', 'a.log']);
    expect(await ignoredNames('src')).toEqual(['generated.ts']);
    // Everything inside an ignored folder is ignored.
    expect(await ignoredNames('dist')).toEqual(['bundle.js']);
  });

  it('marks entries with the tools’ ignore engine: .git/info/exclude, literal braces, node_modules', async () => {
    const { root, list } = await project();
    await mkdir(join(root, '.git', 'info'), { recursive: true });
    await writeFile(join(root, '.git', 'info', 'exclude'), 'notes.txt\n');
    await writeFile(join(root, '.gitignore'), '{a,b}.txt\n');
    await mkdir(join(root, 'node_modules'));
    for (const name of ['notes.txt', '{a,b}.txt', 'a.txt']) await writeFile(join(root, name), '');
    const listing = await list('');
    if (!listing.ok) throw new Error(listing.error.message);
    expect(listing.value.entries.filter((entry) => entry.ignored).map((entry) => entry.name)).toEqual([
      '.git',
      'node_modules',
      '{a,b}.txt',
      'notes.txt',
    ]);
  });

  it('shows a link that leaves the workspace as "other", and follows one that stays inside', async () => {
    const { base, root, list } = await project();
    await mkdir(join(base, 'outside'));
    await symlink(join(base, 'outside'), join(root, 'escape'));
    await symlink(join(root, 'src'), join(root, 'src-link'));
    const listing = await list('');
    if (!listing.ok) throw new Error(listing.error.message);
    expect(listing.value.entries.find((entry) => entry.name === 'escape')).toMatchObject({ type: 'other', link: true });
    expect(listing.value.entries.find((entry) => entry.name === 'src-link')).toMatchObject({
      type: 'directory',
      link: true,
    });
    expect(await list('escape')).toMatchObject({ ok: false, error: { code: 'symlink_escape' } });
  });

  it('answers typed errors for files and missing folders', async () => {
    const { root, list } = await project();
    await writeFile(join(root, 'plain.txt'), '');
    expect(await list('plain.txt')).toMatchObject({ ok: false, error: { code: 'not_a_directory' } });
    expect(await list('missing')).toMatchObject({ ok: false, error: { code: 'file_not_found' } });
    expect(await list('../x')).toMatchObject({ ok: false, error: { code: 'invalid_path' } });
  });

  it('lists a folder of 10,000 files completely', async () => {
    const { root, list } = await project();
    await mkdir(join(root, 'many'));
    await Promise.all(Array.from({ length: 10_000 }, (_, i) => writeFile(join(root, 'many', `f${i}.txt`), '')));
    const listing = await list('many');
    if (!listing.ok) throw new Error(listing.error.message);
    expect(listing.value.entries).toHaveLength(10_000);
    expect(listing.value.omitted).toBe(0);
    expect(listing.value.entries.slice(0, 3).map((entry) => entry.name)).toEqual(['f0.txt', 'f1.txt', 'f2.txt']);
    expect(MAX_LISTED_ENTRIES).toBeGreaterThan(10_000);
  });
});
