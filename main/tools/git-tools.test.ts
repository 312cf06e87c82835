import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempDirs } from '../test-support/temp-dir';
import { gitCommitTool } from './git-commit';
import type { GitCommitOutput } from './git-commit';
import { gitDiffTool } from './git-diff';
import type { GitDiffOutput } from './git-diff';
import { gitStatusTool } from './git-status';
import type { GitStatusOutput } from './git-status';
import { createRegistryKit } from './registry-kit';
import type { RegistryKit } from './registry-kit';

const tempDir = useTempDirs();
const kits: RegistryKit[] = [];
afterEach(async () => {
  await Promise.all(kits.splice(0).map((kit) => kit.kit.dispose()));
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  });

async function setup(options: { repo?: boolean; concealMemory?: boolean } = {}) {
  const kit = await createRegistryKit(tempDir, [gitStatusTool, gitDiffTool, gitCommitTool], {
    ...(options.concealMemory === true ? { isConcealed: (path: string) => path === 'notes/private.md' } : {}),
  });
  kits.push(kit);
  const root = kit.kit.workspace;
  if (options.repo !== false) {
    git(root, 'init', '-q', '-b', 'main');
    git(root, 'config', 'user.name', 'Test');
    git(root, 'config', 'user.email', 'test@example.com');
    await writeFile(join(root, 'a.txt'), 'one\ntwo\n');
    await writeFile(join(root, 'gone.txt'), 'bye\n');
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'initial');
  }
  return { kit, root };
}

const value = <T>(result: { ok: boolean; value?: unknown; error?: unknown }): T => {
  expect(result.ok, JSON.stringify(result.error)).toBe(true);
  return result.value as T;
};

describe('git tools through the registry', () => {
  it('answers not_a_git_repo outside a repository', async () => {
    const { kit } = await setup({ repo: false });
    for (const name of ['git_status', 'git_diff']) {
      expect(await kit.call(name, {})).toMatchObject({ ok: false, error: { code: 'not_a_git_repo' } });
    }
  });

  it('git_status reports branch, staged, unstaged, deleted and untracked files', async () => {
    const { kit, root } = await setup();
    await writeFile(join(root, 'a.txt'), 'one\nTWO\n');
    await mkdir(join(root, 'dir with space'));
    await writeFile(join(root, 'dir with space', 'new file.md'), 'x\n');
    await writeFile(join(root, 'staged.txt'), 's\n');
    git(root, 'add', 'staged.txt');
    git(root, 'rm', '-q', 'gone.txt');
    const status = value<GitStatusOutput>(await kit.call('git_status', {}));
    expect(status).toMatchObject({ branch: 'main', clean: false, conflicted: [] });
    expect(status.staged).toEqual(
      expect.arrayContaining([
        { path: 'staged.txt', change: 'added' },
        { path: 'gone.txt', change: 'deleted' },
      ]),
    );
    expect(status.unstaged).toEqual([{ path: 'a.txt', change: 'modified' }]);
    expect(status.untracked).toEqual(['dir with space/new file.md']);
    expect(kit.requests).toHaveLength(0);
  });

  it('git_diff returns the diff and per-file counts, unstaged or staged, for a path', async () => {
    const { kit, root } = await setup();
    await writeFile(join(root, 'a.txt'), 'one\nTWO\nthree\n');
    const diff = value<GitDiffOutput>(await kit.call('git_diff', {}));
    expect(diff.files).toEqual([{ path: 'a.txt', additions: 2, deletions: 1 }]);
    expect(diff.diff).toContain('-two\n+TWO\n+three');
    const staged = value<GitDiffOutput>(await kit.call('git_diff', { staged: true }));
    expect(staged.files).toEqual([]);
    git(root, 'add', 'a.txt');
    const afterAdd = value<GitDiffOutput>(await kit.call('git_diff', { staged: true, path: 'a.txt' }));
    expect(afterAdd.files).toEqual([{ path: 'a.txt', additions: 2, deletions: 1 }]);
    expect(await kit.call('git_diff', { path: '../x' })).toMatchObject({ ok: false, error: { code: 'invalid_path' } });
  });

  it('git_status and git_diff work from a workspace inside a bigger repository and leave concealed files out', async () => {
    const { kit, root } = await setup({ repo: false, concealMemory: true });
    // The repository is the workspace's parent; the workspace is its 'project/' folder.
    const top = dirname(root);
    git(top, 'init', '-q', '-b', 'main');
    await writeFile(join(top, 'outside.txt'), 'outside\n');
    await mkdir(join(root, 'notes'));
    await writeFile(join(root, 'notes', 'private.md'), 'secret plans\n');
    await writeFile(join(root, 'notes', 'public.md'), 'hello\n');
    git(top, 'add', 'outside.txt', 'project');
    git(top, 'commit', '-q', '-m', 'notes');
    await writeFile(join(top, 'outside.txt'), 'changed outside the workspace\n');
    await writeFile(join(root, 'notes', 'private.md'), 'more secret plans\n');
    await writeFile(join(root, 'notes', 'public.md'), 'hello world\n');
    const status = value<GitStatusOutput>(await kit.call('git_status', {}));
    expect(status.unstaged).toEqual([{ path: 'notes/public.md', change: 'modified' }]);
    const diff = value<GitDiffOutput>(await kit.call('git_diff', {}));
    expect(diff.files.map((file) => file.path)).toEqual(['notes/public.md']);
    expect(diff.diff).not.toContain('secret');
  });

  it('git_commit asks first, then stages and commits exactly the given paths', async () => {
    const { kit, root } = await setup();
    await writeFile(join(root, 'a.txt'), 'changed\n');
    await writeFile(join(root, 'b.txt'), 'new\n');
    await writeFile(join(root, 'untouched.txt'), 'not in this commit\n');
    const result = value<GitCommitOutput>(
      await kit.call('git_commit', { message: 'Change a, add b\n\nWith a body.', paths: ['a.txt', 'b.txt'] }),
    );
    expect(kit.requests).toHaveLength(1);
    expect(kit.requests[0]).toMatchObject({ tool: 'git_commit', operations: ['run'] });
    expect(kit.requests[0]?.facts).toMatchObject({ message: 'Change a, add b\n\nWith a body.', files: 'a.txt\nb.txt' });
    expect(result.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(result.files).toEqual(['a.txt', 'b.txt']);
    expect(git(root, 'log', '-1', '--format=%B').trim()).toBe('Change a, add b\n\nWith a body.');
    expect(git(root, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n')).toEqual(['a.txt', 'b.txt']);
    expect(git(root, 'status', '--porcelain')).toBe('?? untouched.txt\n');
  });

  it('git_commit without paths commits the index; with nothing staged it says so; a rejection commits nothing', async () => {
    const { kit, root } = await setup();
    expect(await kit.call('git_commit', { message: 'empty' })).toMatchObject({
      ok: false,
      error: { code: 'no_change' },
    });
    await writeFile(join(root, 'a.txt'), 'staged change\n');
    git(root, 'add', 'a.txt');
    kit.answer = 'reject';
    expect(await kit.call('git_commit', { message: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'user_rejected' },
    });
    expect(git(root, 'log', '--format=%s').trim().split('\n')).toEqual(['initial']);
    kit.answer = 'approve';
    const result = value<GitCommitOutput>(await kit.call('git_commit', { message: 'staged one' }));
    expect(result.files).toEqual(['a.txt']);
    expect(git(root, 'log', '--format=%s').trim().split('\n')).toEqual(['staged one', 'initial']);
  });
});
