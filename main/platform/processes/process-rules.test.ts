import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test-support/temp-dir';
import { confinementMode } from './confinement';
import { runShellConfined } from '../../test-support/confined-shell';
import { rulesFor } from './process-rules';
import type { ProcessKind } from './process-rules';

/**
 * The rules of each kind of process, run: what a shell started under them may read and write. The
 * tools' own tests (run-command-confined, git-confined, search, code-confined) show each kind is
 * started under its rules; these show what the rules themselves allow.
 */
const mode = confinementMode();
const tempDir = useTempDirs();

async function folders() {
  const home = await tempDir('rules-home-');
  await mkdir(join(home, '.ssh'));
  await writeFile(join(home, '.ssh', 'id_ed25519'), 'DECOY-KEY');
  const workspace = await tempDir('rules-workspace-');
  await writeFile(join(workspace, 'a.txt'), 'inside\n');
  await mkdir(join(workspace, '.git'));
  return { home, workspace, familiarHome: await tempDir('rules-familiar-') };
}

async function runAs(kind: ProcessKind, script: string) {
  const { home, workspace, familiarHome } = await folders();
  const rules = rulesFor(kind, {
    workspaceRoot: workspace,
    personaDir: workspace,
    familiarHome,
    memoryOn: true,
    userHome: home,
  });
  return { ...(await runShellConfined(script, workspace, { HOME: home }, rules)), home, workspace };
}

const attempts = [
  'cat a.txt',
  'cat "$HOME/.ssh/id_ed25519"',
  'mkdir -p "$HOME/.cache" && echo cache > "$HOME/.cache/x" && cat "$HOME/.cache/x"',
  'echo w > written.txt && echo wrote-workspace',
  'echo g > .git/written && echo wrote-git',
].join('; ');

describe.runIf(mode.confined)('the rules of each kind of process', () => {
  it('a language server reads the workspace and writes only a scratch home of its own', async () => {
    const ran = await runAs('language-server', attempts);
    expect(ran.confined).toBe(true);
    expect(ran.stdout).toBe('inside\ncache\n');
    expect(ran.stdout + ran.stderr).not.toContain('DECOY-KEY');
    // The scratch home went with the process; the user's home and the workspace are as they were.
    expect((await readdir(ran.home)).sort()).toEqual(['.ssh']);
    expect((await readdir(ran.workspace)).sort()).toEqual(['.git', 'a.txt']);
    expect(await readdir(join(ran.workspace, '.git'))).toEqual([]);
  });

  it('ripgrep reads the workspace and writes nothing, not even a home', async () => {
    const ran = await runAs('ripgrep', attempts);
    expect(ran.stdout).toBe('inside\n');
    expect(ran.stdout + ran.stderr).not.toContain('DECOY-KEY');
    expect((await readdir(ran.workspace)).sort()).toEqual(['.git', 'a.txt']);
  });

  it('ripgrep sees of the toolchains only the ones its path goes through, and never the home itself', async () => {
    const { home, workspace, familiarHome } = await folders();
    // A ripgrep on PATH under the home, named by a link in another toolchain folder there.
    await mkdir(join(home, '.cargo', 'bin'), { recursive: true });
    await writeFile(join(home, '.cargo', 'bin', 'rg'), '#!/bin/sh\necho ran-rg\n', { mode: 0o755 });
    await mkdir(join(home, '.local', 'bin'), { recursive: true });
    await symlink(join(home, '.cargo', 'bin', 'rg'), join(home, '.local', 'bin', 'rg'));
    await mkdir(join(home, '.rustup'));
    await writeFile(join(home, '.rustup', 'toolchain.txt'), 'TOOLCHAIN\n');
    // One linked from the home itself: the home is never shown for it (it does not run).
    await writeFile(join(home, 'rg-at-home'), '#!/bin/sh\necho ran-home-rg\n', { mode: 0o755 });
    await symlink(join(home, 'rg-at-home'), join(home, '.local', 'bin', 'rg-home'));
    await writeFile(join(home, 'notes.txt'), 'HOME-FILE\n');
    const script = '"$HOME/.local/bin/rg"; cat "$HOME/.rustup/toolchain.txt"; cat a.txt';
    const run = (kind: ProcessKind, ripgrep: string, shell = script) =>
      runShellConfined(
        shell,
        workspace,
        { HOME: home },
        rulesFor(kind, {
          workspaceRoot: workspace,
          personaDir: workspace,
          familiarHome,
          memoryOn: true,
          userHome: home,
          ripgrep,
        }),
      );
    const ripgrep = await run('ripgrep', join(home, '.local', 'bin', 'rg'));
    expect(ripgrep.stdout).toBe('ran-rg\ninside\n');
    expect(ripgrep.stderr).toContain('toolchain.txt');
    const atHome = await run(
      'ripgrep',
      join(home, '.local', 'bin', 'rg-home'),
      '"$HOME/.local/bin/rg-home"; cat "$HOME/notes.txt"; cat a.txt',
    );
    expect(atHome.stdout).toBe('inside\n');
    expect(atHome.stdout + atHome.stderr).not.toContain('HOME-FILE');
    // A language server sees every toolchain.
    const server = await run('language-server', join(home, '.local', 'bin', 'rg'));
    expect(server.stdout).toBe('ran-rg\nTOOLCHAIN\ninside\n');
  });

  it('git writes only inside .git', async () => {
    const ran = await runAs('git', attempts);
    expect(ran.stdout).toBe('inside\nwrote-git\n');
    expect((await readdir(ran.workspace)).sort()).toEqual(['.git', 'a.txt']);
    expect(await readdir(join(ran.workspace, '.git'))).toEqual(['written']);
  });
});
