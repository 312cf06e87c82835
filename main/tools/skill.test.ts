import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolKit } from '../test-support/tool-kit';
import type { ToolKit } from '../test-support/tool-kit';
import { anthropicStyleSkills, simpleSkill, writeSkill } from '../../e2e/fixtures/skill-folders';
import { useTempDirs } from '../test-support/temp-dir';
import { skillTool } from './skill';

const tempDir = useTempDirs();
let kit: ToolKit;
afterEach(() => kit.dispose());

/** The three places of a kit: the workspace's, the user's (~/.agents/skills) and the Familiar home's. */
const places = (tools: ToolKit) => ({
  workspace: join(tools.workspace, '.agents', 'skills'),
  user: tools.userSkillsDir,
  familiar: join(tools.home, 'skills'),
});

describe('the skill tool', () => {
  it("loads SKILL.md's body (no front matter) with the folder's files, then a file on demand", async () => {
    kit = await createToolKit(tempDir);
    await writeSkill(places(kit).user, 'pdf', anthropicStyleSkills.pdf);
    const loaded = await kit.call(skillTool, { name: 'pdf' });
    expect(loaded).toEqual({
      ok: true,
      value: {
        name: 'pdf',
        source: 'user',
        path: 'SKILL.md',
        text: anthropicStyleSkills.pdf.body,
        files: ['LICENSE.txt', 'SKILL.md', 'forms.md', 'reference.md', 'scripts/check_fields.py'],
        folder: join(places(kit).user, 'pdf'),
      },
    });
    expect(await kit.call(skillTool, { name: 'pdf', path: 'forms.md' })).toMatchObject({
      ok: true,
      value: { path: 'forms.md', text: '# Forms\n\nFill fields one by one.\n' },
    });
    expect(await kit.call(skillTool, { name: 'pdf', path: 'scripts/check_fields.py' })).toMatchObject({
      ok: true,
      value: { text: expect.stringContaining('fields of') as string },
    });
  });

  it('gives a workspace skill a folder run_command can name (workspace-relative)', async () => {
    kit = await createToolKit(tempDir);
    await writeSkill(places(kit).workspace, 'notes', simpleSkill('notes', 'Keep notes.', 'Write notes.\n'));
    expect(await kit.call(skillTool, { name: 'notes' })).toMatchObject({
      ok: true,
      value: { source: 'workspace', folder: '.agents/skills/notes', text: 'Write notes.\n' },
    });
  });

  it('refuses paths that leave the skill folder: "..", absolute, and symlinks out (to another skill or outside)', async () => {
    kit = await createToolKit(tempDir);
    const user = places(kit).user;
    const dir = await writeSkill(user, 'pdf', anthropicStyleSkills.pdf);
    await writeSkill(user, 'other', simpleSkill('other', 'Another.', 'Other secret body.\n'));
    const outside = join(kit.home, '..', 'outside.txt');
    await writeFile(outside, 'outside the skills\n');
    await symlink(join(user, 'other', 'SKILL.md'), join(dir, 'sibling.md'));
    await symlink(outside, join(dir, 'out.txt'));
    await symlink(join(user, 'other'), join(dir, 'other-folder'));
    const refusal = async (path: string) => {
      const result = await kit.call(skillTool, { name: 'pdf', path });
      return result.ok ? 'read' : result.error.code;
    };
    expect(await refusal('../other/SKILL.md')).toBe('invalid_path');
    expect(await refusal('scripts/../../other/SKILL.md')).toBe('invalid_path');
    expect(await refusal(outside)).toBe('invalid_path');
    expect(await refusal('sibling.md')).toBe('symlink_escape');
    expect(await refusal('other-folder/SKILL.md')).toBe('symlink_escape');
    expect(await refusal('out.txt')).toBe('symlink_escape');
    expect(await refusal('missing.md')).toBe('file_not_found');
    expect(await refusal('scripts')).toBe('not_a_file');
  });

  it('refuses a workspace skill file that symlinks out of the workspace, and binary assets', async () => {
    kit = await createToolKit(tempDir);
    const dir = await writeSkill(places(kit).workspace, 'notes', simpleSkill('notes', 'Keep notes.', 'Body.\n'));
    await symlink(join(kit.home, 'settings.json'), join(dir, 'settings.md'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'assets', 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
    const settings = await kit.call(skillTool, { name: 'notes', path: 'settings.md' });
    expect(settings).toMatchObject({ ok: false, error: { code: 'symlink_escape' } });
    const logo = await kit.call(skillTool, { name: 'notes', path: 'assets/logo.png' });
    expect(logo).toMatchObject({ ok: false, error: { code: 'binary_file' } });
  });

  it('answers not_found for an unknown and an invalid skill, naming the ones it can use', async () => {
    kit = await createToolKit(tempDir);
    await writeSkill(places(kit).familiar, 'good', simpleSkill('good', 'Fine.', 'Good body.\n'));
    await writeSkill(places(kit).familiar, 'broken', simpleSkill('Broken', 'Bad name.', 'Never shown.\n'));
    const unknown = await kit.call(skillTool, { name: 'nope' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'not_found', message: /no skill named 'nope'.*good/ } });
    const broken = await kit.call(skillTool, { name: 'broken' });
    expect(broken).toMatchObject({ ok: false, error: { code: 'not_found', message: /not valid/ } });
    expect(JSON.stringify(broken)).not.toContain('Never shown');
  });
});
