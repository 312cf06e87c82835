import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAnchorRoots } from '../../platform/disk/anchor-roots';
import { parseWorkspacePath } from '../../platform/disk/path-syntax';
import { useTempDirs } from '../../test-support/temp-dir';
import { parseRelativePath, resolveWorkspacePath } from './workspace-paths';
import type { WorkspaceRoots } from './workspace-paths';

const tempDir = useTempDirs();

/** A project folder and a separate persona folder, as when the user opened their own project. */
async function roots(): Promise<WorkspaceRoots & { outside: string }> {
  const base = await realpath(await tempDir('familiar-paths-'));
  const root = join(base, 'project');
  const personaDir = join(base, 'home', 'workspace');
  const outside = join(base, 'outside');
  await mkdir(join(root, 'src'), { recursive: true });
  await mkdir(join(personaDir, 'memory'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(root, 'src', 'a.ts'), 'a');
  await writeFile(join(root, 'SOUL.md'), 'the project’s own SOUL.md');
  await writeFile(join(personaDir, 'SOUL.md'), 'the persona');
  await writeFile(join(personaDir, 'memory', '2025-01-01.md'), 'note');
  await writeFile(join(outside, 'secret.txt'), 'secret');
  return { root, personaDir, outside, anchors: createAnchorRoots() };
}

describe('parseRelativePath', () => {
  // The path syntax itself is parseWorkspacePath's, tested in path-syntax.test.ts; what this adds
  // is the empty path, which the workspace pane sends for the root.
  it('answers the root for the empty path, which parseWorkspacePath refuses', () => {
    expect(parseWorkspacePath('')).toMatchObject({ ok: false });
    expect(parseRelativePath('')).toEqual({ ok: true, value: '' });
  });

  it.each(['.', './src//a.ts', 'src\\a.ts', 'src/./a.ts/', '/etc/passwd', 'C:\\Windows', 'src/../../x', 'a\0b'])(
    'answers %j as parseWorkspacePath does',
    (raw) => {
      expect(parseRelativePath(raw)).toEqual(parseWorkspacePath(raw));
    },
  );
});

describe('resolveWorkspacePath', () => {
  it('resolves a file inside the workspace to its real name there', async () => {
    const r = await roots();
    expect(await resolveWorkspacePath(r, 'src/a.ts')).toMatchObject({
      ok: true,
      value: { relPath: 'src/a.ts', realRel: 'src/a.ts', inPersona: false, facts: { kind: 'file' } },
    });
    expect(await resolveWorkspacePath(r, '')).toMatchObject({
      ok: true,
      value: { relPath: '', realRel: '', inPersona: false, facts: { kind: 'directory' } },
    });
  });

  it('sends the persona names into the persona folder, shadowing the project’s own files', async () => {
    const r = await roots();
    expect(await resolveWorkspacePath(r, 'SOUL.md')).toMatchObject({
      ok: true,
      value: { realRel: 'SOUL.md', inPersona: true, key: 'persona:SOUL.md' },
    });
    expect(await resolveWorkspacePath(r, 'memory/2025-01-01.md')).toMatchObject({
      ok: true,
      value: { realRel: 'memory/2025-01-01.md', inPersona: true },
    });
    // Only at the root: a SOUL.md deeper down is an ordinary project file.
    await writeFile(join(r.root, 'src', 'SOUL.md'), 'x');
    expect(await resolveWorkspacePath(r, 'src/SOUL.md')).toMatchObject({ ok: true, value: { inPersona: false } });
  });

  it('has no overlay when the open folder is the persona folder itself', async () => {
    const r = await roots();
    const same = { root: r.personaDir, personaDir: r.personaDir, anchors: r.anchors };
    expect(await resolveWorkspacePath(same, 'SOUL.md')).toMatchObject({ ok: true, value: { inPersona: false } });
  });

  it('refuses a symbolic link that leads outside, and follows one that stays inside', async () => {
    const r = await roots();
    await symlink(r.outside, join(r.root, 'escape'));
    await symlink(join(r.outside, 'secret.txt'), join(r.root, 'secret-link'));
    await symlink(join(r.root, 'src'), join(r.root, 'src-link'));
    expect(await resolveWorkspacePath(r, 'escape/secret.txt')).toMatchObject({
      ok: false,
      error: { code: 'symlink_escape' },
    });
    expect(await resolveWorkspacePath(r, 'secret-link')).toMatchObject({
      ok: false,
      error: { code: 'symlink_escape' },
    });
    expect(await resolveWorkspacePath(r, 'src-link/a.ts')).toMatchObject({
      ok: true,
      value: { realRel: 'src/a.ts' },
    });
  });

  it('answers file_not_found for a missing path, not_a_directory below a file and invalid_path for a link loop', async () => {
    const r = await roots();
    expect(await resolveWorkspacePath(r, 'nope.txt')).toMatchObject({ ok: false, error: { code: 'file_not_found' } });
    expect(await resolveWorkspacePath(r, 'src/a.ts/child')).toMatchObject({
      ok: false,
      error: { code: 'not_a_directory' },
    });
    await symlink(join(r.root, 'loop-b'), join(r.root, 'loop-a'));
    await symlink(join(r.root, 'loop-a'), join(r.root, 'loop-b'));
    expect(await resolveWorkspacePath(r, 'loop-a')).toMatchObject({ ok: false, error: { code: 'invalid_path' } });
  });

  it('refuses traversal and absolute paths before touching the disk', async () => {
    const r = await roots();
    for (const raw of ['../outside/secret.txt', join(r.outside, 'secret.txt'), 'src/\0']) {
      expect(await resolveWorkspacePath(r, raw), raw).toMatchObject({ ok: false, error: { code: 'invalid_path' } });
    }
  });
});
