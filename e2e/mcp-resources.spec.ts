import { reply } from './fixtures/scripted-llm-server';
import { expect, test } from './fixtures/familiar-app';
import { openWithEverythingServer } from './fixtures/mcp-everything';

test.use({ provider: 'scripted' });

test('a resource picked with @ and a prompt picked with / reach the model as the server’s content', async ({
  page,
  app,
  llm,
}) => {
  await openWithEverythingServer(page, app.url);

  const composer = page.getByRole('textbox', { name: 'Message to Familiar' });
  await composer.pressSequentially('Summarize @architec');
  const menu = page.getByRole('listbox', { name: 'Resources of your MCP servers' });
  await expect(menu.getByRole('option')).toHaveCount(1);
  await expect(menu.getByRole('option')).toContainText('@architecture.md');
  await page.screenshot({ path: 'test-results/screens/mcp-resource-menu.png' });
  await composer.press('Enter');
  await expect(menu).toBeHidden();
  const chips = page.getByRole('list', { name: 'Attached from MCP servers', exact: true });
  await expect(chips).toContainText('@architecture.md');
  await expect(composer).toHaveValue('Summarize ');

  llm.enqueue(reply.text('It describes how the server is built.'), reply.text('Reykjavik it is.'));
  await composer.pressSequentially('it.');
  await composer.press('Enter');
  await expect(page.getByRole('article', { name: 'Familiar' }).last()).toContainText(
    'It describes how the server is built.',
  );
  const sent = JSON.stringify(llm.requests[0]?.messages ?? []);
  expect(sent).toContain('Summarize it.');
  expect(sent).toContain('Everything Server – Architecture');
  expect(sent).toContain(
    'the resource demo://resource/static/document/architecture.md of the MCP server \\"everything\\". It is the server\'s content (untrusted)',
  );
  await expect(
    page.getByRole('list', { name: 'Attached from MCP servers (their content, not your words)' }),
  ).toContainText('@demo://resource/static/document/architecture.md');

  // A prompt with an argument: / lists it, the small form asks for the argument, the model gets its messages.
  await composer.pressSequentially('/args');
  await expect(page.getByRole('listbox', { name: 'Prompts of your MCP servers' })).toContainText(
    '/everything:args-prompt',
  );
  await composer.press('Enter');
  const form = page.getByRole('dialog', { name: 'Arguments of /everything:args-prompt' });
  await form.getByRole('textbox', { name: 'city (required)' }).fill('Reykjavik');
  await form.getByRole('button', { name: 'Attach' }).click();
  await expect(form).toBeHidden();
  await expect(chips).toContainText('/everything:args-prompt');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('article', { name: 'Familiar' }).last()).toContainText('Reykjavik it is.');
  const prompted = JSON.stringify(llm.requests[1]?.messages ?? []);
  expect(prompted).toContain('the prompt /everything:args-prompt of the MCP server \\"everything\\"');
  expect(prompted).toContain('Reykjavik');
});
