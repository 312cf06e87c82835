import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reply, startScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import type { ScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import type { SkillRow } from '../../shared/ipc/skills';
import { useContractCores } from '../test-support/contract-core';
import { expectOutsideTextWarning, sendInNewConversation } from '../test-support/contract-turns';
import { anthropicStyleSkills, simpleSkill, writeSkill } from '../../e2e/fixtures/skill-folders';
import { useTempDirs } from '../test-support/temp-dir';

/**
 * Agent Skills through the contract with the real core and a scripted model: the three places and
 * their precedence, an invalid skill shown and never loaded, a body that reaches the model only when
 * it calls the skill tool, the switch, and a skill's text counted as outside text (provenance).
 */
const tempDir = useTempDirs();
const startCore = useContractCores();
let server: ScriptedLlmServer;
afterEach(() => server.close());

async function start() {
  server = await startScriptedLlmServer();
  const home = await tempDir();
  const workspace = await tempDir();
  const skills = {
    workspace: join(workspace, '.agents', 'skills'),
    // What test cores take for ~/.agents/skills (test-core.ts): never the real one.
    user: join(home, 'user-skills'),
    familiar: join(home, 'skills'),
  };
  const run = await startCore({ home, llmUrl: server.url, workspace });
  const turn = async (text: string) => {
    const id = await sendInNewConversation(run, text);
    await run.turnEnd();
    return id;
  };
  const list = async () => (await run.call<{ skills: SkillRow[] }>('skills.list', {})).skills;
  const toolResults = () => run.chatEvents.filter((event) => event.type === 'tool-result');
  return { ...run, skills, turn, list, toolResults };
}

describe('Agent Skills from three places', () => {
  it('are found in the workspace, ~/.agents/skills and the Familiar home, that precedence, by name', async () => {
    const run = await start();
    await writeSkill(
      run.skills.workspace,
      'notes',
      simpleSkill('notes', 'Notes the workspace way.', 'WORKSPACE BODY\n'),
    );
    await writeSkill(run.skills.user, 'notes', simpleSkill('notes', 'Notes the user way.', 'USER BODY\n'));
    await writeSkill(run.skills.familiar, 'notes', simpleSkill('notes', 'Notes the home way.', 'HOME BODY\n'));
    await writeSkill(run.skills.user, 'travel', simpleSkill('travel', 'Plan trips.', 'USER TRAVEL\n'));
    await writeSkill(run.skills.familiar, 'travel', simpleSkill('travel', 'Plan trips at home.', 'HOME TRAVEL\n'));
    await writeSkill(run.skills.familiar, 'recipes', simpleSkill('recipes', 'Cook things.', 'HOME RECIPES\n'));

    const rows = await run.list();
    expect(rows.map((row) => [row.source, row.name, row.loaded, row.shadowedBy ?? null])).toEqual([
      ['workspace', 'notes', true, null],
      ['user', 'notes', false, 'workspace'],
      ['user', 'travel', true, null],
      ['familiar', 'notes', false, 'workspace'],
      ['familiar', 'recipes', true, null],
      ['familiar', 'travel', false, 'user'],
    ]);
    expect(rows[0]?.dir).toBe(join(run.skills.workspace, 'notes'));

    server.enqueue(
      reply.toolCall('skill', { name: 'notes' }),
      reply.toolCall('skill', { name: 'travel' }),
      reply.toolCall('skill', { name: 'recipes' }),
      reply.text('Done.'),
    );
    await run.turn('Use the skills.');
    const system = server.requests[0]?.system ?? '';
    expect(system).toContain('- notes: Notes the workspace way.');
    expect(system).toContain('- travel: Plan trips.');
    expect(system).toContain('- recipes: Cook things.');
    expect(system).not.toMatch(/the user way|the home way|trips at home/);
    expect(run.toolResults().map((event) => JSON.stringify(event.result))).toEqual([
      expect.stringContaining('WORKSPACE BODY'),
      expect.stringContaining('USER TRAVEL'),
      expect.stringContaining('HOME RECIPES'),
    ]);
  });

  it('shows a skill with invalid front matter with its errors, and never offers or loads it', async () => {
    const run = await start();
    await writeSkill(run.skills.user, 'good', simpleSkill('good', 'A good skill.', 'GOOD BODY\n'));
    await writeSkill(run.skills.user, 'Bad-Name', simpleSkill('Bad-Name', 'Uppercase name.', 'BAD BODY\n'));
    await writeSkill(run.skills.familiar, 'no-description', { frontMatter: 'name: no-description', body: 'X\n' });
    const rows = await run.list();
    expect(rows.find((row) => row.name === 'Bad-Name')).toMatchObject({
      source: 'user',
      loaded: false,
      errors: [expect.stringMatching(/lowercase letters/) as string],
    });
    expect(rows.find((row) => row.name === 'no-description')).toMatchObject({
      loaded: false,
      errors: ["'description' is missing."],
    });

    server.enqueue(reply.toolCall('skill', { name: 'Bad-Name' }), reply.text('Sorry.'));
    await run.turn('Use Bad-Name.');
    expect(server.requests[0]?.system).toContain('- good: A good skill.');
    expect(server.requests[0]?.system).not.toMatch(/Bad-Name|Uppercase name|no-description/);
    const [result] = run.toolResults();
    expect(result).toMatchObject({ result: { ok: false, code: 'not_found' } });
    expect(JSON.stringify(server.requests.map((request) => request.messages))).not.toContain('BAD BODY');
  });

  it('puts only names and descriptions in the prompt: a body reaches the model only once it calls skill', async () => {
    const run = await start();
    await writeSkill(run.skills.user, 'pdf', anthropicStyleSkills.pdf);
    await writeSkill(run.skills.familiar, 'api-guide', anthropicStyleSkills['api-guide']);
    server.enqueue(reply.text('Hello.'));
    await run.turn('Hi.');
    server.enqueue(
      reply.toolCall('skill', { name: 'pdf' }),
      reply.toolCall('skill', { name: 'pdf', path: 'forms.md' }),
      reply.text('Filled.'),
    );
    await run.turn('Fill my PDF form.');

    const [first, second, third, fourth] = server.requests;
    expect(first?.toolNames).toContain('skill');
    expect(first?.system).toContain('- pdf: Use this skill whenever the user works with PDF files');
    expect(first?.system).toContain('- api-guide: Reference for an HTTP API');
    const bodyLine = 'For forms read forms.md.';
    for (const request of [first, second]) {
      expect(JSON.stringify(request?.body)).not.toContain(bodyLine);
      expect(JSON.stringify(request?.body)).not.toContain('Fill fields one by one');
    }
    expect(JSON.stringify(third?.messages)).toContain(bodyLine);
    expect(JSON.stringify(third?.messages)).not.toContain('Fill fields one by one');
    expect(JSON.stringify(fourth?.messages)).toContain('Fill fields one by one');
  });

  it('offers the skill tool only while a skill is on: the switch in settings takes it away', async () => {
    const run = await start();
    server.enqueue(reply.text('No skills.'));
    await run.turn('Hi.');
    expect(server.requests[0]?.toolNames).not.toContain('skill');
    expect(server.requests[0]?.system).not.toContain('## Skills');

    await writeSkill(run.skills.familiar, 'recipes', simpleSkill('recipes', 'Cook things.', 'Body.\n'));
    server.enqueue(reply.text('One skill.'));
    await run.turn('Hi again.');
    expect(server.requests[1]?.toolNames).toContain('skill');

    const listed = async () =>
      (await run.call<{ tools: { name: string }[] }>('tools.list', {})).tools.map((t) => t.name);
    expect(await listed()).toContain('skill');
    await run.call('settings.update', { skills: { disabled: ['recipes'] } });
    // The tools panel follows the switch without waiting for a turn.
    await vi.waitFor(async () => expect(await listed()).not.toContain('skill'));
    expect((await run.list())[0]).toMatchObject({ name: 'recipes', enabled: false, loaded: false });
    server.enqueue(reply.toolCall('skill', { name: 'recipes' }), reply.text('Off.'));
    await run.turn('Cook.');
    expect(server.requests[2]?.toolNames).not.toContain('skill');
    expect(server.requests[2]?.system).not.toContain('recipes');
    expect(run.toolResults()[0]).toMatchObject({ result: { ok: false, code: 'unknown_tool' } });
  });

  it("counts a skill's text as outside text: a memory change after it asks, naming the skill", async () => {
    const run = await start();
    await writeSkill(run.skills.user, 'pdf', anthropicStyleSkills.pdf);
    server.enqueue(
      reply.toolCall('skill', { name: 'pdf' }),
      reply.toolCall('memory_append', { text: 'The user loves PDFs.' }),
      reply.text('OK.'),
    );
    await sendInNewConversation(run, 'Fill the form.');
    await expectOutsideTextWarning(run, 'memory_append', "skill 'pdf'");
  });
});
