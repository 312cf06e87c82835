import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeSkill } from './fixtures/skill-folders';
import { reply } from './fixtures/scripted-llm-server';
import { expect, test } from './fixtures/familiar-app';
import { sendMessage } from './fixtures/page-helpers';

test.use({ provider: 'scripted' });

const pdfBody = '# PDF processing\n\nFor forms read forms.md, then fill each field.\n';

test('a scripted model loads a skill with the skill tool; Settings → Skills shows each with source, switch and errors', async ({
  page,
  app,
  llm,
}) => {
  // One skill in each place: the workspace's, the user's (~/.agents/skills) and Familiar's data; the last is invalid.
  await writeSkill(join(app.workspace, '.agents', 'skills'), 'meeting-notes', {
    frontMatter: 'name: meeting-notes\ndescription: Write meeting notes in the team format.',
    body: 'Use headings for each topic.\n',
  });
  await writeSkill(app.userSkills, 'pdf', {
    frontMatter:
      'name: pdf\ndescription: "Use this skill whenever the user works with PDF files: forms, merging, splitting."\nlicense: Proprietary. LICENSE.txt has complete terms',
    body: pdfBody,
    files: { 'forms.md': '# Forms\n\nFill the fields one by one.\n', 'LICENSE.txt': 'Terms.\n' },
  });
  await writeSkill(join(app.home, 'skills'), 'broken-skill', {
    frontMatter: 'name: Broken_Skill\ndescription: Never loaded.',
    body: 'X\n',
  });

  llm.enqueue(
    reply.toolCall('skill', { name: 'pdf' }, undefined, 'call-skill'),
    reply.toolCall('skill', { name: 'pdf', path: 'forms.md' }, undefined, 'call-forms'),
    reply.text('I filled the form as the skill says.'),
  );
  await page.goto(app.url);
  await sendMessage(page, 'Fill in my PDF form.');
  await expect(page.getByRole('article', { name: 'Familiar' })).toContainText('I filled the form as the skill says.');
  const cards = page.locator('details.tool-card', { hasText: 'skill' });
  await expect(cards).toHaveCount(2);
  await expect(cards.locator('.tool-outcome')).toHaveText(['ok', 'ok']);

  // Only names and descriptions were in the prompt; the body came with the first call, forms.md with the second.
  const [first, second, third] = llm.requests;
  expect(first?.toolNames).toContain('skill');
  expect(first?.system).toContain('- pdf: Use this skill whenever the user works with PDF files');
  expect(first?.system).toContain('- meeting-notes: Write meeting notes in the team format.');
  expect(first?.system).not.toContain('Broken_Skill');
  expect(JSON.stringify(first?.body)).not.toContain('then fill each field');
  expect(JSON.stringify(second?.messages)).toContain('then fill each field');
  expect(JSON.stringify(third?.messages)).toContain('Fill the fields one by one.');

  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('navigation').getByRole('button', { name: 'Skills' }).click();
  const section = settings.getByRole('region', { name: 'Skills' });
  await expect(section.getByTestId('skill-workspace-meeting-notes')).toContainText('offered to the assistant');
  await expect(section.getByTestId('skill-user-pdf')).toContainText('~/.agents/skills');
  const broken = section.getByTestId('skill-familiar-broken-skill');
  await expect(broken).toContainText('not loaded: invalid');
  await expect(broken.getByRole('list', { name: 'What is wrong with broken-skill' })).toContainText(
    'lowercase letters',
  );
  await expect(broken.getByRole('checkbox')).toBeDisabled();
  await page.screenshot({ path: 'test-results/screens/settings-skills.png' });

  // The switch: pdf off is saved in settings and the row says so; the model is no longer offered it.
  await section.getByRole('checkbox', { name: 'Use the skill pdf (~/.agents/skills)' }).click();
  await expect(section.getByTestId('skill-user-pdf')).toContainText('switched off');
  const saved = JSON.parse(await readFile(join(app.home, 'settings.json'), 'utf8')) as {
    skills: { disabled: string[] };
  };
  expect(saved.skills.disabled).toEqual(['pdf']);
  await page.keyboard.press('Escape');
  llm.enqueue(reply.text('Noted.'));
  await sendMessage(page, 'Anything else?');
  await expect(page.getByRole('article', { name: 'Familiar' }).last()).toContainText('Noted.');
  expect(llm.requests.at(-1)?.system).not.toContain('- pdf:');
  expect(llm.requests.at(-1)?.system).toContain('- meeting-notes:');
});
