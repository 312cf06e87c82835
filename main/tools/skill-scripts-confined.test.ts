import { access, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { confinementMode } from '../platform/processes/confinement';
import { simpleSkill, writeSkill } from '../../e2e/fixtures/skill-folders';
import { runShell } from '../test-support/tool-calls-kit';
import { useToolCallsKits } from '../test-support/use-tool-kits';
import { runCommandTool } from './run-command';
import { skillTool } from './skill';

/**
 * A skill's scripts run only through run_command, confined: a skill kept in the Familiar home (whose
 * data no command sees) is readable to a command, read-only, and nothing else of the home comes with it.
 */
const mode = confinementMode();
const skipped = mode.confined ? '' : ` (skipped: ${mode.reason} ${mode.fix})`;
const kits = useToolCallsKits();

describe.runIf(mode.confined)(`a skill's scripts through run_command${skipped}`, () => {
  it("runs a home skill's script read-only, while the rest of Familiar's data stays hidden", async () => {
    const kit = await kits.start([runCommandTool]);
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

    const ran = await runShell(kit, `sh '${folder}/scripts/hello.sh'`);
    expect(ran).toMatchObject({ exit_code: 0, confined: true });
    expect(ran.stdout).toContain('hello from the skill');
    const wrote = await runShell(kit, `echo changed > '${folder}/scripts/hello.sh'; echo x > '${folder}/new.txt'`);
    expect(wrote.exit_code).not.toBe(0);
    await expect(access(join(folder, 'new.txt'))).rejects.toThrow();
    const settings = await runShell(kit, `cat '${kit.kit.home}/settings.json'`);
    expect(settings.stdout).not.toContain('FAMILIAR-DECOY-SETTINGS');
  });

  it("shows nothing when the home's skills/ is a symlink to elsewhere in Familiar's data", async () => {
    const kit = await kits.start([runCommandTool]);
    await writeFile(join(kit.kit.home, 'settings.json'), '{"marker":"FAMILIAR-DECOY-SETTINGS"}');
    await symlink(kit.kit.home, join(kit.kit.home, 'skills'));
    const settings = await runShell(kit, `cat '${kit.kit.home}/skills/settings.json' '${kit.kit.home}/settings.json'`);
    expect(settings.stdout).not.toContain('FAMILIAR-DECOY-SETTINGS');
  });
});
