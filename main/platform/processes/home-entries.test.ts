import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test-support/temp-dir';
import { readableHomeEntries } from './home-entries';
import { rulesFor } from './process-rules';

const tempDir = useTempDirs();

/** A home with a project folder, a secret, Familiar's data and a workspace inside it. */
async function homeLayout() {
  const home = await tempDir('familiar-home-entries-');
  const folders = {
    projects: join(home, 'projects'),
    ssh: join(home, '.ssh'),
    familiarHome: join(home, 'data', 'familiar'),
    workspaceRoot: join(home, 'work', 'app'),
  };
  for (const folder of Object.values(folders)) await mkdir(folder, { recursive: true });
  await writeFile(join(folders.ssh, 'id_ed25519'), 'secret');
  const personaDir = join(folders.familiarHome, 'workspace');
  await mkdir(personaDir);
  return { home, ...folders, personaDir };
}

describe('readableHomeEntries', () => {
  it('keeps plain folders and files below the home, as absolute paths', async () => {
    const layout = await homeLayout();
    const kept = { folders: [layout.familiarHome, layout.personaDir], workspaceRoot: layout.workspaceRoot };
    expect(readableHomeEntries(layout.home, ['projects', 'notes.txt', 'work'], kept)).toEqual([
      layout.projects,
      join(layout.home, 'notes.txt'),
      join(layout.home, 'work'),
    ]);
  });

  it("leaves out Familiar's data and what holds it, the workspace's insides and links to a secret", async () => {
    const layout = await homeLayout();
    await symlink(layout.ssh, join(layout.projects, 'keys'));
    await symlink(layout.personaDir, join(layout.home, 'persona'));
    const kept = { folders: [layout.familiarHome, layout.personaDir], workspaceRoot: layout.workspaceRoot };
    const entries = ['data', 'data/familiar/audit', 'projects/keys', 'persona', 'work/app/src', '.ssh', '../x'];
    expect(readableHomeEntries(layout.home, entries, kept)).toEqual([]);
  });

  it("reach a command's rules: put back inside the hidden home, after the toolchains", async () => {
    const layout = await homeLayout();
    const rules = rulesFor('command', {
      workspaceRoot: layout.workspaceRoot,
      personaDir: layout.personaDir,
      familiarHome: layout.familiarHome,
      userHome: layout.home,
      memoryOn: true,
      readableInHome: ['projects', 'data'],
    });
    expect(rules.hiddenTrees).toContain(layout.home);
    expect(rules.readableInHidden).toContain(layout.projects);
    expect(rules.readableInHidden).not.toContain(join(layout.home, 'data'));
  });
});
