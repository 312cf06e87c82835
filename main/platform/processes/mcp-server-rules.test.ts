import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test-support/temp-dir';
import { confinementMode } from './confinement';
import { runShellConfined } from '../../test-support/confined-shell';
import { mcpServerRules } from './process-rules';

/** What a user's MCP server may touch under its rules (issue 29), run as a shell under them. */
const mode = confinementMode();
const tempDir = useTempDirs();

async function runAsServer(writeWorkspace: boolean, script: string) {
  const home = await tempDir('mcp-rules-home-');
  await mkdir(join(home, '.ssh'));
  await writeFile(join(home, '.ssh', 'id_ed25519'), 'DECOY-KEY');
  const workspace = await tempDir('mcp-rules-workspace-');
  await writeFile(join(workspace, 'a.txt'), 'inside\n');
  await writeFile(join(workspace, 'MEMORY.md'), 'DECOY-MEMORY');
  const familiarHome = await tempDir('mcp-rules-familiar-');
  await writeFile(join(familiarHome, 'settings.json'), 'DECOY-SETTINGS');
  const dataDir = join(familiarHome, 'mcp-servers', 'demo');
  await mkdir(dataDir, { recursive: true });
  const rules = mcpServerRules(
    { workspaceRoot: workspace, personaDir: workspace, familiarHome, memoryOn: true, userHome: home },
    { dataDir, writeWorkspace },
  );
  const ran = await runShellConfined(script, workspace, { HOME: home, DATA: dataDir, FAMILIAR: familiarHome }, rules);
  return { ...ran, home, workspace, dataDir, familiarHome };
}

const attempts = [
  'cat a.txt',
  'cat MEMORY.md',
  'cat "$HOME/.ssh/id_ed25519"',
  'cat "$FAMILIAR/settings.json"',
  'echo kept > "$DATA/state" && echo wrote-data',
  'echo w > written.txt && echo wrote-workspace',
  'echo f > "$FAMILIAR/planted" && echo wrote-familiar',
].join('; ');

describe.runIf(mode.confined)('an MCP server under its rules', () => {
  it('reads the workspace, writes only its own data folder, sees no memory, secrets or settings', async () => {
    const ran = await runAsServer(false, attempts);
    expect(ran.confined).toBe(true);
    expect(ran.stdout).toBe('inside\nwrote-data\n');
    const seen = ran.stdout + ran.stderr;
    for (const decoy of ['DECOY-KEY', 'DECOY-MEMORY', 'DECOY-SETTINGS']) expect(seen).not.toContain(decoy);
    expect(await readFile(join(ran.dataDir, 'state'), 'utf8')).toBe('kept\n');
    expect((await readdir(ran.workspace)).sort()).toEqual(['MEMORY.md', 'a.txt']);
    expect((await readdir(ran.familiarHome)).sort()).toEqual(['mcp-servers', 'settings.json']);
  });

  it('writes the workspace only when granted', async () => {
    const ran = await runAsServer(true, attempts);
    expect(ran.stdout).toBe('inside\nwrote-data\nwrote-workspace\n');
    expect((await readdir(ran.workspace)).sort()).toEqual(['MEMORY.md', 'a.txt', 'written.txt']);
    expect((await readdir(ran.familiarHome)).sort()).toEqual(['mcp-servers', 'settings.json']);
  });
});
