import { mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { confinementMode } from '../platform/processes/confinement';
import { gitRun } from '../test-support/git-run';
import { callValue } from '../test-support/tool-calls-kit';
import { useToolCallsKits } from '../test-support/use-tool-kits';
import { gitCommitTool } from './git-commit';
import type { GitCommitOutput } from './git-commit';
import { gitStatusTool } from './git-status';
import type { GitStatusOutput } from './git-status';
import { withRepository } from './git/git-repository';

/**
 * Issue 28 item 3: git runs confined too (process-rules.ts, 'git'): the work tree read-only, only
 * `.git` writable (not its hooks or config), nothing of the home, no network. git-hostile.test.ts
 * shows git runs no program a repository names; this shows where git itself may write when the
 * repository leads its writes elsewhere: its reflogs, through a `.git/logs` that is a link.
 */
const mode = confinementMode();
const skipped = mode.confined ? '' : ` (skipped: ${mode.reason} ${mode.fix})`;

const { tempDir, start } = useToolCallsKits();

const git = gitRun;

async function setup() {
  const kit = await start([gitStatusTool, gitCommitTool], { approvalMode: 'approve-all' });
  const root = kit.kit.workspace;
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.name', 'Test');
  git(root, 'config', 'user.email', 'test@example.com');
  await writeFile(join(root, 'a.txt'), 'one\n');
  git(root, 'add', '.');
  git(root, 'commit', '-q', '-m', 'initial');
  return { kit, root };
}

const value = callValue;

describe(`git runs confined by the operating system${skipped}`, () => {
  it('says whether each run was confined, and the tools answer as before', async () => {
    const { kit, root } = await setup();
    const probe = await withRepository(kit.kit.ctx(), (repo) => repo.git(['rev-parse', '--git-dir']));
    expect(probe.ok && probe.value.confined).toBe(mode.confined);
    expect(probe.ok && probe.value.exitCode).toBe(0);

    await writeFile(join(root, 'a.txt'), 'one\ntwo\n');
    await writeFile(join(root, 'b.txt'), 'new\n');
    const status = value<GitStatusOutput>(await kit.call('git_status', {}));
    expect(status).toMatchObject({ branch: 'main', unstaged: [{ path: 'a.txt', change: 'modified' }] });
    expect(status.untracked).toEqual(['b.txt']);
    const commit = value<GitCommitOutput>(await kit.call('git_commit', { message: 'two', paths: ['a.txt', 'b.txt'] }));
    expect(commit.files).toEqual(['a.txt', 'b.txt']);
    expect(git(root, 'log', '--format=%s')).toBe('two\ninitial\n');
    expect(git(root, 'status', '--porcelain')).toBe('');
  });

  describe.runIf(mode.confined)('a repository that leads git’s writes out of .git', () => {
    it('cannot make it write outside the workspace (a relative link climbing out)', async () => {
      const { kit, root } = await setup();
      const outside = await tempDir('git-outside-');
      await rm(join(root, '.git', 'logs'), { recursive: true, force: true });
      await symlink(relative(join(root, '.git'), outside), join(root, '.git', 'logs'));
      await writeFile(join(root, 'a.txt'), 'changed\n');
      await kit.call('git_commit', { message: 'change', paths: ['a.txt'] });
      // Unconfined (or with the repository folder handed over as a descriptor) git writes its
      // reflogs there: HEAD and refs/heads/main.
      expect(await readdir(outside)).toEqual([]);
    });

    it('cannot make it write into the work tree', async () => {
      const { kit, root } = await setup();
      const before = (await readdir(root)).sort();
      await rm(join(root, '.git', 'logs'), { recursive: true, force: true });
      await symlink('..', join(root, '.git', 'logs'));
      await writeFile(join(root, 'a.txt'), 'changed\n');
      await kit.call('git_commit', { message: 'change', paths: ['a.txt'] });
      expect((await readdir(root)).sort()).toEqual(before);
    });

    it('cannot make it write into .git/hooks', async () => {
      const { kit, root } = await setup();
      await rm(join(root, '.git', 'logs'), { recursive: true, force: true });
      await mkdir(join(root, '.git', 'logs'));
      await symlink('../hooks', join(root, '.git', 'logs', 'refs'));
      const hooks = (await readdir(join(root, '.git', 'hooks'))).sort();
      await writeFile(join(root, 'a.txt'), 'changed\n');
      await kit.call('git_commit', { message: 'change', paths: ['a.txt'] });
      expect((await readdir(join(root, '.git', 'hooks'))).sort()).toEqual(hooks);
    });
  });
});
