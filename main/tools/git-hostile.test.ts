import { execFileSync } from 'node:child_process';
import { chmod, link, mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTempDirs } from '../test-support/temp-dir';
import { gitCommitTool } from './git-commit';
import type { GitCommitOutput } from './git-commit';
import { gitDiffTool } from './git-diff';
import type { GitDiffOutput } from './git-diff';
import { gitStatusTool } from './git-status';
import type { GitStatusOutput } from './git-status';
import { createToolCallsKit } from '../test-support/tool-calls-kit';
import type { ToolCallsKit } from '../test-support/tool-calls-kit';

/**
 * A repository set up by an attacker: its config points the work tree outside, names an fsmonitor,
 * an external diff and a gpg program, its hooks folder is full, the shell exports GIT_DIR and
 * friends, and the work tree holds a folder swapped for a link to outside and a hard link to an
 * outside file. Every program would leave a marker file outside; the git tools (under approve-all,
 * so nothing stops at a question) must run none of them and answer from the workspace only.
 */

const tempDir = useTempDirs();
const kits: ToolCallsKit[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(kits.splice(0).map((kit) => kit.kit.dispose()));
});

/** The tests' own git: hooks and fsmonitor off, so setting the trap up does not spring it. */
const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    'git',
    [
      '-c',
      'user.name=Test',
      '-c',
      'user.email=t@example.com',
      '-c',
      'core.hooksPath=/dev/null',
      '-c',
      'core.fsmonitor=false',
      ...args,
    ],
    { cwd, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' } },
  );

const OUTSIDE_TEXT = 'OUTSIDE-CONTENT-7f3a';
const HARD_TEXT = 'OUTSIDE-HARDLINK-91c2';

async function hostileSetup() {
  const kit = await createToolCallsKit(tempDir, [gitStatusTool, gitDiffTool, gitCommitTool], {
    approvalMode: 'approve-all',
  });
  kits.push(kit);
  const root = kit.kit.workspace;
  const scratch = await tempDir('git-hostile-');
  const outside = join(scratch, 'outside');
  const markers = join(scratch, 'markers');
  await mkdir(outside);
  await mkdir(markers);
  await writeFile(join(outside, 'outside-secret.txt'), `${OUTSIDE_TEXT}\n`);
  await writeFile(join(outside, 'a.txt'), `${OUTSIDE_TEXT} a\n`);
  await writeFile(join(outside, 'hard-source.txt'), `${HARD_TEXT}\n`);
  const script = async (name: string) => {
    const file = join(scratch, `${name}.sh`);
    await writeFile(file, `#!/bin/sh\ntouch '${join(markers, name)}'\ncat >/dev/null 2>&1 || true\n`);
    await chmod(file, 0o755);
    return file;
  };

  git(root, 'init', '-q', '-b', 'main');
  await writeFile(join(root, 'a.txt'), 'one\ntwo\n');
  await mkdir(join(root, 'dir'));
  await writeFile(join(root, 'dir', 'file.txt'), 'inside\n');
  await writeFile(join(root, 'hard.txt'), 'inside hard\n');
  git(root, 'add', '.');
  git(root, 'commit', '-q', '-m', 'initial');

  git(root, 'config', 'core.worktree', outside);
  git(root, 'config', 'core.fsmonitor', await script('fsmonitor'));
  git(root, 'config', 'diff.external', await script('diff-external'));
  git(root, 'config', 'core.pager', await script('pager'));
  git(root, 'config', 'commit.gpgSign', 'true');
  git(root, 'config', 'gpg.program', await script('gpg'));
  git(root, 'config', 'core.editor', await script('editor'));
  const hooks = [
    'pre-commit',
    'prepare-commit-msg',
    'commit-msg',
    'post-commit',
    'post-checkout',
    'post-index-change',
    'reference-transaction',
    'pre-auto-gc',
  ];
  for (const hook of hooks) {
    await writeFile(join(root, '.git', 'hooks', hook), `#!/bin/sh\ntouch '${join(markers, `hook-${hook}`)}'\n`);
    await chmod(join(root, '.git', 'hooks', hook), 0o755);
  }
  // The user's shell would redirect a naive git: another repository, another work tree, a diff program.
  vi.stubEnv('GIT_DIR', join(outside, '.git'));
  vi.stubEnv('GIT_WORK_TREE', outside);
  vi.stubEnv('GIT_EXTERNAL_DIFF', await script('env-external-diff'));
  vi.stubEnv('GIT_CONFIG_PARAMETERS', `'core.fsmonitor'='${await script('env-fsmonitor')}'`);

  // The work tree: a real change, a new file, a folder swapped for a link to outside, a hard link to outside.
  await writeFile(join(root, 'a.txt'), 'one\nTWO\n');
  await writeFile(join(root, 'new.txt'), 'new inside\n');
  await rm(join(root, 'dir'), { recursive: true });
  await symlink(outside, join(root, 'dir'));
  await rm(join(root, 'hard.txt'));
  await link(join(outside, 'hard-source.txt'), join(root, 'hard.txt'));
  return { kit, root, outside, markers };
}

const value = <T>(result: { ok: boolean; value?: unknown; error?: unknown }): T => {
  expect(result.ok, JSON.stringify(result.error)).toBe(true);
  return result.value as T;
};

/** Nothing outside may show: not a name only the outside folder has, not a byte of its files. */
const expectNoOutside = (answer: unknown) => {
  const text = JSON.stringify(answer);
  for (const needle of ['outside-secret', 'hard-source', OUTSIDE_TEXT, HARD_TEXT]) expect(text).not.toContain(needle);
};

describe('git tools against a hostile repository', () => {
  it('run nothing the repository names and answer from the workspace only', async () => {
    const { kit, root, markers } = await hostileSetup();

    const status = value<GitStatusOutput>(await kit.call('git_status', {}));
    expectNoOutside(status);
    expect(status.unstaged).toEqual([{ path: 'a.txt', change: 'modified' }]);
    // 'dir' itself is a workspace entry (a symlink); what lies behind it is not listed.
    expect(status.untracked).toEqual(['dir', 'new.txt']);

    const diff = value<GitDiffOutput>(await kit.call('git_diff', {}));
    expectNoOutside(diff);
    expect(diff.files).toEqual([{ path: 'a.txt', additions: 1, deletions: 1 }]);
    expect(diff.diff).toContain('-two\n+TWO\n');

    const commit = value<GitCommitOutput>(await kit.call('git_commit', { message: 'change a', paths: ['a.txt'] }));
    expectNoOutside(commit);
    expect(commit.files).toEqual(['a.txt']);
    expect(git(root, 'show', 'HEAD:a.txt')).toBe('one\nTWO\n');
    expect(git(root, 'log', '--format=%s')).toBe('change a\ninitial\n');
    // Unsigned: gpg.program never ran.
    expect(git(root, 'cat-file', '-p', 'HEAD')).not.toContain('gpgsig');

    // A folder that leads outside, or a hard link to an outside file, is never committed.
    for (const paths of [['dir'], ['dir/file.txt'], ['hard.txt']]) {
      const refused = await kit.call('git_commit', { message: 'take outside', paths });
      expect(refused.ok, JSON.stringify(refused)).toBe(false);
      expectNoOutside(refused);
    }
    // Staged through the user's own (hardened) git, then committed as the index.
    git(root, '--work-tree=.', 'add', 'new.txt');
    const staged = value<GitDiffOutput>(await kit.call('git_diff', { staged: true }));
    expect(staged.files).toEqual([{ path: 'new.txt', additions: 1, deletions: 0 }]);
    const indexCommit = value<GitCommitOutput>(await kit.call('git_commit', { message: 'add new' }));
    expect(indexCommit.files).toEqual(['new.txt']);
    expect(git(root, 'log', '-p', '--format=%s')).not.toContain('OUTSIDE');

    expect(await readdir(markers)).toEqual([]);

    // The trap was real: a plain git in the same repository runs the fsmonitor, lists outside files...
    const plain = execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8', env: plainEnv() });
    expect(plain).toContain('outside-secret.txt');
    expect(await readdir(markers)).toContain('fsmonitor');
    // ...and its own commit runs the hooks.
    execFileSync('git', ['-c', 'commit.gpgSign=false', 'commit', '-q', '--allow-empty', '-m', 'plain'], {
      cwd: root,
      env: {
        ...plainEnv(),
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t',
      },
    });
    expect(await readdir(markers)).toContain('hook-pre-commit');
  });

  it('refuses a .git that leads outside: a link, a gitdir file or borrowed objects', async () => {
    const kit = await createToolCallsKit(tempDir, [gitStatusTool, gitDiffTool, gitCommitTool], {
      approvalMode: 'approve-all',
    });
    kits.push(kit);
    const root = kit.kit.workspace;
    const outside = join(await tempDir('git-outside-'), 'repo');
    await mkdir(outside);
    git(outside, 'init', '-q', '-b', 'main');
    await writeFile(join(outside, 'outside-secret.txt'), `${OUTSIDE_TEXT}\n`);
    git(outside, 'add', '.');
    git(outside, 'commit', '-q', '-m', 'outside');
    await writeFile(join(root, 'inside.txt'), 'inside\n');

    const tryAll = async (label: string) => {
      for (const name of ['git_status', 'git_diff', 'git_commit']) {
        const result = await kit.call(name, name === 'git_commit' ? { message: 'x', paths: ['inside.txt'] } : {});
        expect(result, `${label} ${name}`).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
        expectNoOutside(result);
      }
    };
    await symlink(join(outside, '.git'), join(root, '.git'));
    await tryAll('.git symlink');
    await rm(join(root, '.git'));
    await writeFile(join(root, '.git'), `gitdir: ${join(outside, '.git')}\n`);
    await tryAll('gitdir file');
    await rm(join(root, '.git'));
    git(root, 'init', '-q', '-b', 'main');
    await writeFile(join(root, '.git', 'objects', 'info', 'alternates'), `${join(outside, '.git', 'objects')}\n`);
    await tryAll('alternates');
    expect(kit.requests).toHaveLength(0);
  });
});

/** A plain user's environment: no GIT_* from the stubs above. */
function plainEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' };
}
