import { chmod, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitRun } from '../test-support/git-run';
import { callValue } from '../test-support/tool-calls-kit';
import { pathExists } from '../test-support/path-exists';
import { useToolCallsKits } from '../test-support/use-tool-kits';
import { gitCommitTool } from './git-commit';
import type { GitCommitOutput } from './git-commit';
import { gitDiffTool } from './git-diff';
import type { GitDiffOutput } from './git-diff';
import { gitStatusTool } from './git-status';
import type { GitStatusOutput } from './git-status';

const { tempDir, start } = useToolCallsKits();

const git = gitRun;

async function setup(options: { repo?: boolean; concealMemory?: boolean } = {}) {
  const kit = await start([gitStatusTool, gitDiffTool, gitCommitTool], {
    ...(options.concealMemory === true ? { isConcealed: (path: string) => path === 'notes/private.md' } : {}),
  });
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

const value = callValue;

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

  it('git_diff computes the unstaged diff from sandbox reads, as git prints it', async () => {
    const { kit, root } = await setup();
    await writeFile(join(root, 'script.sh'), 'echo hi\n');
    await writeFile(join(root, 'bin.dat'), Buffer.from([1, 0, 2, 3]));
    await symlink('a.txt', join(root, 'link'));
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'more');
    await writeFile(join(root, 'a.txt'), 'one\nTWO\nthree\n');
    await rm(join(root, 'gone.txt'));
    await chmod(join(root, 'script.sh'), 0o755);
    await writeFile(join(root, 'bin.dat'), Buffer.from([1, 0, 9, 3]));
    await rm(join(root, 'link'));
    await symlink('script.sh', join(root, 'link'));
    await writeFile(join(root, 'intent.txt'), 'intended\n');
    git(root, 'add', '-N', 'intent.txt');
    const diff = value<GitDiffOutput>(await kit.call('git_diff', {}));
    expect(diff.diff).toBe(git(root, 'diff', '--no-ext-diff', '--no-color'));
    expect(diff.files).toEqual([
      { path: 'a.txt', additions: 2, deletions: 1 },
      { path: 'bin.dat', additions: null, deletions: null },
      { path: 'gone.txt', additions: 0, deletions: 1 },
      { path: 'intent.txt', additions: 1, deletions: 0 },
      { path: 'link', additions: 1, deletions: 1 },
      { path: 'script.sh', additions: 0, deletions: 0 },
    ]);
  });

  it('git_commit takes deletions, renames, executable bits, symlinks and line endings as git add would', async () => {
    const { kit, root } = await setup();
    git(root, 'config', 'core.autocrlf', 'true');
    await writeFile(join(root, 'a.txt'), 'one\r\nTWO\r\n');
    // Only the changed line shows: the work tree's CRLF is what git stores as LF.
    const diff = value<GitDiffOutput>(await kit.call('git_diff', { path: 'a.txt' }));
    expect(diff.files).toEqual([{ path: 'a.txt', additions: 1, deletions: 1 }]);
    git(root, 'mv', 'gone.txt', 'moved.txt');
    await writeFile(join(root, 'run.sh'), '#!/bin/sh\n');
    await chmod(join(root, 'run.sh'), 0o755);
    await symlink('run.sh', join(root, 'link'));
    const result = value<GitCommitOutput>(await kit.call('git_commit', { message: 'all kinds', paths: ['.'] }));
    expect([...result.files].sort()).toEqual(['a.txt', 'gone.txt', 'link', 'moved.txt', 'run.sh']);
    expect(result.summary).toMatch(/^\[main [0-9a-f]{7}\] all kinds$/);
    // Index and HEAD now agree with the work tree in content, mode and kind.
    expect(git(root, 'status', '--porcelain')).toBe('');
    expect(git(root, 'ls-tree', 'HEAD', 'run.sh', 'link')).toMatch(
      /^120000 blob \w+\tlink\n100755 blob \w+\trun\.sh\n$/,
    );
    expect(git(root, 'show', 'HEAD:a.txt')).toBe('one\nTWO\n');
    // A file a configured filter driver owns (git-lfs and the like) is not staged raw behind its back.
    git(root, 'config', 'filter.lfs.clean', 'git-lfs clean -- %f');
    await writeFile(join(root, '.gitattributes'), 'big.bin filter=lfs\n');
    await writeFile(join(root, 'big.bin'), 'large\n');
    const refused = await kit.call('git_commit', { message: 'lfs', paths: ['big.bin'] });
    expect(refused).toMatchObject({ ok: false, error: { code: 'git_failed' } });
    expect(JSON.stringify(refused)).toContain("filter driver 'lfs'");
    expect(git(root, 'log', '--format=%s')).toBe('all kinds\ninitial\n');
  });

  it('refuses a workspace inside a bigger repository: git never reaches the parent folder', async () => {
    const { kit, root } = await setup({ repo: false });
    // The repository is the workspace's parent; the workspace is its 'project/' folder.
    const top = dirname(root);
    git(top, 'init', '-q', '-b', 'main');
    await writeFile(join(top, 'outside.txt'), 'outside\n');
    await writeFile(join(root, 'inside.txt'), 'inside\n');
    git(top, 'add', 'outside.txt', 'project/inside.txt');
    git(top, 'commit', '-q', '-m', 'both');
    await writeFile(join(top, 'outside.txt'), 'changed outside the workspace\n');
    for (const name of ['git_status', 'git_diff', 'git_commit']) {
      const result = await kit.call(name, name === 'git_commit' ? { message: 'x', paths: ['inside.txt'] } : {});
      expect(result, name).toMatchObject({ ok: false, error: { code: 'not_a_git_repo' } });
      expect(JSON.stringify(result)).not.toContain('outside');
    }
    expect(kit.requests).toHaveLength(0);
  });

  it('git_status and git_diff leave concealed files out', async () => {
    const { kit, root } = await setup({ concealMemory: true });
    await mkdir(join(root, 'notes'));
    await writeFile(join(root, 'notes', 'private.md'), 'secret plans\n');
    await writeFile(join(root, 'notes', 'public.md'), 'hello\n');
    git(root, 'add', 'notes');
    git(root, 'commit', '-q', '-m', 'notes');
    await writeFile(join(root, 'notes', 'private.md'), 'more secret plans\n');
    await writeFile(join(root, 'notes', 'public.md'), 'hello world\n');
    const status = value<GitStatusOutput>(await kit.call('git_status', {}));
    expect(status.unstaged).toEqual([{ path: 'notes/public.md', change: 'modified' }]);
    const diff = value<GitDiffOutput>(await kit.call('git_diff', {}));
    expect(diff.files.map((file) => file.path)).toEqual(['notes/public.md']);
    expect(diff.diff).toContain('+hello world');
    expect(diff.diff).not.toContain('secret');
    git(root, 'add', 'notes');
    const staged = value<GitDiffOutput>(await kit.call('git_diff', { staged: true }));
    expect(staged.files.map((file) => file.path)).toEqual(['notes/public.md']);
    expect(staged.diff).not.toContain('secret');
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

  it('git_status and git_diff run no program the repository config names (filter, textconv, diff command)', async () => {
    const { kit, root } = await setup();
    const markers = await tempDir('git-markers-');
    const marker = (name: string) => join(markers, name);
    // A driver name with a dot and required=true: switching it off must neither misparse nor fail.
    git(root, 'config', 'filter.x.y.clean', `touch '${marker('clean')}'; cat`);
    git(root, 'config', 'filter.x.y.smudge', `touch '${marker('smudge')}'; cat`);
    git(root, 'config', 'filter.x.y.required', 'true');
    git(root, 'config', 'filter.p.process', `touch '${marker('process')}'`);
    git(root, 'config', 'diff.x.textconv', `touch '${marker('textconv')}'; cat`);
    git(root, 'config', 'diff.x.command', `touch '${marker('command')}'`);
    await writeFile(join(root, '.gitattributes'), 'a.txt filter=x.y diff=x\ngone.txt filter=p\n');
    // Same sizes as committed: git must read the contents to see the change, which is when filters run.
    await writeFile(join(root, 'a.txt'), 'one\nTWO\n');
    await writeFile(join(root, 'gone.txt'), 'BYE\n');
    const status = value<GitStatusOutput>(await kit.call('git_status', {}));
    expect(status.unstaged).toEqual([
      { path: 'a.txt', change: 'modified' },
      { path: 'gone.txt', change: 'modified' },
    ]);
    for (const staged of [false, true]) {
      const diff = value<GitDiffOutput>(await kit.call('git_diff', { staged }));
      if (!staged) expect(diff.diff).toContain('-two\n+TWO');
    }
    value<GitDiffOutput>(await kit.call('git_diff', { path: 'a.txt' }));
    for (const name of ['clean', 'smudge', 'process', 'textconv', 'command']) {
      expect(await pathExists(marker(name)), name).toBe(false);
    }
    // The same repository does run the filter for the user's own git: the markers above were reachable.
    git(root, 'diff', '--no-ext-diff', '--no-textconv', '--', 'a.txt');
    expect(await pathExists(marker('clean'))).toBe(true);
  });

  it('git_commit without paths refuses when the index holds entries the preview cannot show', async () => {
    const { kit, root } = await setup();
    await writeFile(join(root, 'a.txt'), 'visible change\n');
    await writeFile(join(root, '.env'), 'TOKEN=secret\n');
    git(root, 'add', 'a.txt', '.env');
    const refused = await kit.call('git_commit', { message: 'everything staged' });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'permission_denied', details: { hidden_staged_entries: 1 } },
    });
    expect(JSON.stringify(refused)).not.toContain('.env');
    // Refused before asking: the user never saw a preview that left the secret out.
    expect(kit.requests).toHaveLength(0);
    expect(git(root, 'log', '--format=%s').trim().split('\n')).toEqual(['initial']);
    // Given paths, only those are committed; the secret stays staged for the user.
    const byPath = value<GitCommitOutput>(await kit.call('git_commit', { message: 'only a', paths: ['a.txt'] }));
    expect(byPath.files).toEqual(['a.txt']);
    expect(git(root, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('a.txt');
    expect(git(root, 'diff', '--cached', '--name-only').trim()).toBe('.env');
    // Once the user unstages it, the index commit goes ahead and takes exactly what the preview listed.
    git(root, 'restore', '--staged', '.env');
    await writeFile(join(root, 'a.txt'), 'second change\n');
    git(root, 'add', 'a.txt');
    const committed = value<GitCommitOutput>(await kit.call('git_commit', { message: 'staged a' }));
    expect(kit.requests.at(-1)?.facts).toMatchObject({ files: 'a.txt' });
    expect(committed.files).toEqual(['a.txt']);
    expect(git(root, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('a.txt');
  });
});
