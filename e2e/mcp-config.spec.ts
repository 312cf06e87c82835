import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { callFamiliar, expect, test } from './fixtures/familiar-app';
import { everything } from './fixtures/mcp-everything';

test.use({ provider: 'scripted' });

test('a workspace’s .mcp.json is offered in the chat and runs only once allowed; env values stay out of settings.json', async ({
  page,
  app,
}) => {
  await writeFile(
    join(app.workspace, '.mcp.json'),
    JSON.stringify({ mcpServers: { repo: { command: process.execPath, args: [everything, 'stdio'] } } }),
  );
  await page.goto(app.url);
  const notice = page.getByRole('group', { name: 'Offered by this workspace (.mcp.json)' });
  await expect(notice).toContainText('This workspace offers MCP servers (repo)');
  const before = await callFamiliar(app, 'mcpServers.list', {});
  expect(before.ok && before.value.servers).toEqual([]);
  await page.screenshot({ path: 'test-results/screens/mcp-workspace-offer-notice.png' });
  await notice.getByRole('button', { name: 'Allow for this workspace' }).click();
  await expect(notice).toBeHidden();

  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings
    .getByRole('navigation', { name: 'Settings sections' })
    .getByRole('button', { name: 'MCP servers' })
    .click();
  const section = settings.getByRole('region', { name: 'MCP servers' });
  const offered = section.locator('li[data-offered="repo"]');
  await expect(offered.getByRole('status')).toHaveText(/ready, \d+ tools/, { timeout: 20_000 });
  await expect(section).toContainText('Allowed for this workspace.');

  await section.getByRole('textbox', { name: 'Name' }).fill('withtoken');
  await section.getByRole('textbox', { name: 'Command', exact: true }).fill(process.execPath);
  await section.getByRole('textbox', { name: 'Arguments, one per line' }).fill(`${everything}\nstdio`);
  await section
    .getByRole('textbox', { name: 'Environment variables, one KEY=value per line' })
    .fill('TOKEN=abc-e2e-secret');
  await section.getByRole('button', { name: 'Add server' }).click();
  const row = section.locator('li.mcp-server[data-server="withtoken"]');
  await expect(row.getByRole('status')).toHaveText(/^ready, \d+ tools$/, { timeout: 20_000 });
  await expect(row).toContainText('TOKEN');
  await expect(row).toContainText('•••••••• (saved)');
  await section.screenshot({ path: 'test-results/screens/settings-mcp-secrets-offer.png' });
  const saved = await readFile(join(app.home, 'settings.json'), 'utf8');
  expect(saved).toContain('TOKEN');
  expect(saved).not.toContain('abc-e2e-secret');
});
