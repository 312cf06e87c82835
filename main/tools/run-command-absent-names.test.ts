import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { confinementMode } from '../platform/processes/confinement';
import { useTempDirs } from '../test-support/temp-dir';
import { createToolCallsKit } from '../test-support/tool-calls-kit';
import type { ToolCallsKit } from '../test-support/tool-calls-kit';
import { runCommandTool } from './run-command';
import type { RunCommandOutput } from './run-command';

/**
 * Protected names that do not exist yet (process-rules.ts: `.envrc`, `.vscode`, SOUL.md, MEMORY.md...)
 * cannot be created by a confined command either: each is held as an empty read-only folder while
 * the command runs, and the workspace is left exactly as it was afterwards. A folder with no
 * repository is the exception: `git init` works there, as a user expects.
 */
const mode = confinementMode();
const skipped = mode.confined ? '' : ` (skipped: ${mode.reason} ${mode.fix})`;

const tempDir = useTempDirs();
const kits: ToolCallsKit[] = [];
afterEach(async () => {
  await Promise.all(kits.splice(0).map((kit) => kit.kit.dispose()));
});

async function setup() {
  const kit = await createToolCallsKit(tempDir, [runCommandTool]);
  kits.push(kit);
  await writeFile(join(kit.kit.workspace, 'a.txt'), 'a\n');
  return { kit, workspace: kit.kit.workspace };
}

const run = async (kit: ToolCallsKit, command: string) => {
  const result = await kit.call('run_command', { command, shell: true, timeout: 20 });
  if (!result.ok) throw new Error(`run_command failed: ${JSON.stringify(result.error)}`);
  return result.value as RunCommandOutput;
};

const entries = async (folder: string) => (await readdir(folder)).sort();

const attempts = [
  'echo x > .envrc',
  'mkdir -p .vscode && echo {} > .vscode/tasks.json',
  'echo soul > SOUL.md',
  'echo memory > MEMORY.md',
  'mkdir -p memory && echo note > memory/today.md',
  'echo {} > .mcp.json',
];

describe.runIf(mode.confined)(`absent protected names cannot be created by a confined command${skipped}`, () => {
  it('refuses each, writes inside as usual, and leaves nothing behind', async () => {
    const { kit, workspace } = await setup();
    const output = await run(
      kit,
      [...attempts.map((attempt) => `if ${attempt}; then echo CREATED; fi`), 'echo inside > inside.txt'].join('\n'),
    );
    expect(output.confined).toBe(true);
    expect(output.stdout).not.toContain('CREATED');
    expect(await entries(workspace)).toEqual(['a.txt', 'inside.txt']);
  });

  it('lets a command create a repository where there is none, and commit in it', async () => {
    const { kit, workspace } = await setup();
    const output = await run(
      kit,
      'git init -q && git add a.txt && git -c user.name=t -c user.email=t@t commit -qm first && git log --oneline | wc -l',
    );
    expect(output.confined).toBe(true);
    expect(output.stdout.trim()).toBe('1');
    expect(await entries(workspace)).toEqual(['.git', 'a.txt']);
  });

  it('keeps a name held while another command that used it ends first', async () => {
    const { kit, workspace } = await setup();
    // The slow one tries after the quick one has ended: the quick one's end must not free the name.
    const slow = run(kit, 'sleep 1.5; if echo x > .envrc; then echo CREATED; fi');
    await new Promise((resolve) => setTimeout(resolve, 400));
    await run(kit, 'true');
    expect((await slow).stdout).not.toContain('CREATED');
    expect(await entries(workspace)).toEqual(['a.txt']);
  });
});
