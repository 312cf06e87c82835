import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConfinementInfo } from '../../shared/ipc/app';
import { confinementMode, resetConfinementProbe } from '../platform/processes/confinement';
import { rulesFor } from '../platform/processes/process-rules';
import { useTempDirs } from '../test-support/temp-dir';
import { useTestCores } from '../test-support/test-core';
import { describeConfinement } from './confinement-info';

const tempDir = useTempDirs();
const testCore = useTestCores();

afterEach(() => {
  vi.unstubAllEnvs();
  resetConfinementProbe();
});

/** A core on its own home and project folder, asked through the dispatcher as the page asks. */
async function start() {
  const home = await tempDir('familiar-confinement-home-');
  const workspace = await tempDir('familiar-confinement-project-');
  const core = await testCore({ home, workspace });
  const call = async (name: string, input: unknown) => {
    const result = await core.dispatch(name, input, { transport: 'direct', clientId: 'test' });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    return result.ok ? result.value : undefined;
  };
  const confinement = async () => (await call('app.confinement', {})) as ConfinementInfo;
  return { home, call, confinement };
}

describe('app.confinement', () => {
  it("answers the probed mode and each kind's rules for the open workspace, paths workspace-relative", async () => {
    const { home, confinement } = await start();
    const info = await confinement();
    const probed = confinementMode();
    expect(info.mode).toEqual(probed.confined ? { confined: true, tool: probed.tool, path: probed.path } : probed);
    const [command, git, ripgrep, server] = info.processes;
    // A command reads the home's skills/, so a skill's scripts can run. The test core's stand-in for
    // ~/.agents/skills lies inside the home, and nothing else in Familiar's data is put back.
    expect(command).toMatchObject({
      kind: 'command',
      writes: ['.'],
      reads: [join(home, 'skills')],
      hidden: [],
      network: true,
      toolchains: true,
    });
    expect(command?.readOnly).toEqual(
      expect.arrayContaining(['SOUL.md', '.git/hooks', '.git/config', '.envrc', 'USER.md', 'MEMORY.md', 'memory']),
    );
    expect(git).toEqual({
      kind: 'git',
      writes: ['.git'],
      reads: ['.'],
      readOnly: ['.git/hooks', '.git/config'],
      hidden: [],
      network: false,
      toolchains: true,
    });
    expect(ripgrep).toMatchObject({ kind: 'ripgrep', writes: [], reads: ['.'], readOnly: [], toolchains: false });
    expect(server?.kind).toBe('language-server');
    expect(info.hiddenTrees).toEqual([homedir(), home]);
    expect(info.toolchains).toEqual(expect.arrayContaining([join(homedir(), '.nvm'), join(homedir(), '.gitconfig')]));
    expect(info.readableInHome).toEqual([]);
    expect(info.userHome).toBe(homedir());
  });

  it('follows the settings at each call: memory off hides the memory files, readableInHome adds folders', async () => {
    const { call, confinement } = await start();
    await call('settings.update', { memory: { enabled: false }, commands: { readableInHome: ['projects/shared/'] } });
    const info = await confinement();
    expect(info.processes[0]?.hidden).toEqual(['USER.md', 'MEMORY.md', 'memory']);
    expect(info.processes[0]?.readOnly).not.toContain('MEMORY.md');
    expect(info.processes[2]?.hidden).toEqual(['USER.md', 'MEMORY.md', 'memory']);
    expect(info.readableInHome).toEqual([join(homedir(), 'projects', 'shared')]);
  });

  it('says why commands are not confined, and how to fix it', async () => {
    vi.stubEnv('FAMILIAR_UNCONFINED', '1');
    resetConfinementProbe();
    const { confinement } = await start();
    expect((await confinement()).mode).toEqual({
      confined: false,
      reason: 'FAMILIAR_UNCONFINED=1 is set in the environment Familiar was started with.',
      fix: 'Start Familiar without FAMILIAR_UNCONFINED.',
    });
  });

  it("names the user's entries the rules left out (here one holding Familiar's data)", async () => {
    const home = await tempDir('familiar-confinement-user-');
    const familiarHome = join(home, 'data', 'familiar');
    const workspaceRoot = join(home, 'work');
    for (const folder of [familiarHome, workspaceRoot, join(home, 'projects')])
      await mkdir(folder, { recursive: true });
    const entries = ['projects', 'data'];
    const folders = { workspaceRoot, personaDir: join(familiarHome, 'workspace'), familiarHome, userHome: home };
    const env = {
      workspaceRoot,
      personaDir: folders.personaDir,
      confinementFor: (kind: Parameters<typeof rulesFor>[0]) =>
        rulesFor(kind, { ...folders, memoryOn: true, readableInHome: entries }),
    };
    const search = { engine: 'ripgrep', source: 'bundled', path: '/app/resources/ripgrep/rg' } as const;
    const info = describeConfinement(env, entries, search, home);
    expect(info.search).toEqual(search);
    expect(info.readableInHome).toEqual([join(home, 'projects')]);
    expect(info.leftOut).toEqual(['data']);
    expect(info.hiddenTrees).toEqual([home, familiarHome]);
    expect(info.toolchains[0]).toBe(join(home, '.nvm'));
  });
});
