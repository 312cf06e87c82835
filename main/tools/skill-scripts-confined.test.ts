import { access, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { confinementMode } from '../platform/processes/confinement';
import { simpleSkill, writeSkill } from '../../e2e/fixtures/skill-folders';
import { useTempDirs } from '../test-support/temp-dir';
import { createToolCallsKit } from '../test-support/tool-calls-kit';
import type { ToolCallsKit } from '../test-support/tool-calls-kit';
import { runCommandTool } from './run-command';
import type { RunCommandOutput } from './run-command';
import { skillTool } from './skill';

/**
 * A skill's scripts run only through run_command, confined: a skill kept in the Familiar home (whose
 * data no command sees) is readable to a command, read-only, and nothing else of the home comes with it.
 */
const mode = confinementMode();
const skipped = mode.confined ? '' : ` (skipped: ${mode.reason} ${mode.fix})`;
const tempDir = useTempDirs();
const kits: ToolCallsKit[] = [];
afterEach(async () => {
  await Promise.all(kits.splice(0).map((kit) => kit.kit.dispose()));
});

const run = async (kit: ToolCallsKit, command: string) => {
  const result = await kit.call('run_command', { command, shell: true, timeout: 20 });
  if (!result.ok) throw new Error(`run_command failed: ${JSON.stringify(result.error)}`);
  return result.value as RunCommandOutput;
};

describe.runIf(mode.confined)(`a skill's scripts through run_command${skipped}`, () => {
  it("runs a home skill's script read-only, while the rest of Familiar's data stays hidden", async () => {
    const kit = await createToolCallsKit(tempDir, [runCommandTool]);
    kits.push(kit);
    const skills = join(kit.kit.home, 'skills');
    await writeSkill(skills, 'hello', {
      ...simpleSkill('hello', 'Greets.', 'Run scripts/hello.sh.\n'),
      files: { 'scripts/hello.sh': 'echo "hello from the skill"\n' },
    });
    await writeFile(join(kit.kit.home, 'settings.json'), '{"marker":"FAMILIAR-DECOY-SETTINGS"}');
    const loaded = await kit.kit.call(skillTool, { name: 'hello' });
    if (!loaded.ok) throw new Error(loaded.error.message);
    const folder = loaded.value.folder ?? '';
    expect(folder).toBe(join(skills, 'hello'));

    const ran = await run(kit, `sh '${folder}/scripts/hello.sh'`);
    expect(ran).toMatchObject({ exit_code: 0, confined: true });
    expect(ran.stdout).toContain('hello from the skill');
    const wrote = await run(kit, `echo changed > '${folder}/scripts/hello.sh'; echo x > '${folder}/new.txt'`);
    expect(wrote.exit_code).not.toBe(0);
    await expect(access(join(folder, 'new.txt'))).rejects.toThrow();
    const settings = await run(kit, `cat '${kit.kit.home}/settings.json'`);
    expect(settings.stdout).not.toContain('FAMILIAR-DECOY-SETTINGS');
  });

  it("shows nothing when the home's skills/ is a symlink to elsewhere in Familiar's data", async () => {
    const kit = await createToolCallsKit(tempDir, [runCommandTool]);
    kits.push(kit);
    await writeFile(join(kit.kit.home, 'settings.json'), '{"marker":"FAMILIAR-DECOY-SETTINGS"}');
    await symlink(kit.kit.home, join(kit.kit.home, 'skills'));
    const settings = await run(kit, `cat '${kit.kit.home}/skills/settings.json' '${kit.kit.home}/settings.json'`);
    expect(settings.stdout).not.toContain('FAMILIAR-DECOY-SETTINGS');
  });
});
