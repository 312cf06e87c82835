import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { reply } from './fixtures/scripted-llm-server';
import { callFamiliar, expect, test } from './fixtures/familiar-app';
import { addEverythingServer, openWithEverythingServer } from './fixtures/mcp-everything';
import { openSettingsSection, sendMessage } from './fixtures/page-helpers';
import type { RunningApp } from './fixtures/familiar-app';
import { fetchingServerSource, hasSocat, startPageServer } from './fixtures/fetching-mcp-server';

test.use({ provider: 'scripted' });

const savedMcp = async (app: RunningApp) => {
  const text = await readFile(join(app.home, 'settings.json'), 'utf8').catch(() => '{}');
  return (JSON.parse(text) as { mcp?: { alwaysAllowed?: unknown[] } }).mcp;
};

test('a server added in Settings → MCP servers: its tool asks with the arguments, runs, and "always" is revoked in Settings', async ({
  page,
  app,
  llm,
}) => {
  await page.goto(app.url);
  const { section, row } = await addEverythingServer(page);
  await expect(row).toContainText('workspace: read only · its own data folder · no network');
  await page.screenshot({ path: 'test-results/screens/settings-mcp-servers.png', fullPage: true });
  await page.keyboard.press('Escape');

  llm.enqueue(
    reply.toolCall('everything__echo', { message: 'hello from the host' }, undefined, 'call-echo'),
    reply.text('The server said: Echo: hello from the host'),
  );
  await sendMessage(page, 'Ask the everything server to echo.');
  const dialog = page.getByRole('dialog', { name: 'The assistant asks for your approval' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('everything');
  await expect(dialog).toContainText('readOnlyHint: true');
  await expect(dialog.locator('.approval-mcp-arguments')).toHaveText('{\n  "message": "hello from the host"\n}');
  await page.screenshot({ path: 'test-results/screens/mcp-approval-card.png' });
  await dialog.getByRole('radio', { name: /always/ }).check();
  await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('article', { name: 'Familiar' }).last()).toContainText('Echo: hello from the host');
  // The model got the server's own words back.
  const toolMessage = JSON.stringify(llm.requests[1]?.messages ?? []);
  expect(toolMessage).toContain('Echo: hello from the host');
  await expect.poll(async () => (await savedMcp(app))?.alwaysAllowed).toEqual([{ server: 'everything', tool: 'echo' }]);

  await openSettingsSection(page, 'MCP servers');
  await section.getByRole('button', { name: 'Revoke everything → echo' }).click();
  await expect(section).toContainText('None: every tool asks.');
  await expect.poll(async () => (await savedMcp(app))?.alwaysAllowed).toEqual([]);
  const status = await callFamiliar(app, 'mcpServers.list', {});
  expect(status.ok && status.value.servers.map((server) => server.state)).toEqual(['ready']);
});

test("a server's form question is drawn in the dialog and the user's values reach the server", async ({
  page,
  app,
  llm,
}) => {
  await openWithEverythingServer(page, app.url);

  llm.enqueue(reply.toolCall('everything__trigger-elicitation-request', {}), reply.text('Thanks for the answers.'));
  await sendMessage(page, 'Ask me some questions.');
  const dialog = page.getByRole('dialog', { name: 'The assistant asks for your approval' });
  await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(dialog).toContainText('Please provide inputs for the following fields:');
  const send = dialog.getByRole('button', { name: 'Send' });
  await expect(send).toBeDisabled();
  await dialog.getByLabel(/^String \(required\)/).fill('Ada Lovelace');
  await dialog.getByLabel('Boolean', { exact: true }).check();
  await dialog.getByLabel('Titled Single Select Enum', { exact: true }).selectOption('hero-3');
  await page.screenshot({ path: 'test-results/screens/mcp-elicitation-form.png' });
  await send.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('article', { name: 'Familiar' }).last()).toContainText('Thanks for the answers.');
  const toolMessage = JSON.stringify(llm.requests[1]?.messages ?? []);
  expect(toolMessage).toContain('Ada Lovelace');
  expect(toolMessage).toContain('hero-3');
});

test("a confined server's host is asked about; 'always for this server' lets it through and lists it in Settings", async ({
  page,
  app,
  llm,
}) => {
  const confinement = await callFamiliar(app, 'app.confinement', {});
  test.skip(!confinement.ok || !confinement.value.mode.confined || !hasSocat(), 'needs bubblewrap and socat');
  const web = await startPageServer();
  try {
    // In the workspace: a confined server sees its own, empty /tmp.
    const file = join(app.workspace, 'net-server.mjs');
    await writeFile(file, fetchingServerSource);
    const servers = { net: { command: process.execPath, args: [file] } };
    expect((await callFamiliar(app, 'mcpServers.import', { text: JSON.stringify({ mcpServers: servers }) })).ok).toBe(
      true,
    );
    await expect
      .poll(
        async () => {
          const listed = await callFamiliar(app, 'mcpServers.list', {});
          return listed.ok && listed.value.servers.map((server) => server.state);
        },
        { timeout: 20_000 },
      )
      .toEqual(['ready']);
    await page.goto(app.url);
    llm.enqueue(
      reply.toolCall('net__fetch', { url: `http://127.0.0.1:${web.port}/x` }, undefined, 'call-fetch'),
      reply.text('Fetched it.'),
    );
    await sendMessage(page, 'Fetch the page with the net server.');
    const dialog = page.getByRole('dialog', { name: 'The assistant asks for your approval' });
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    const span = dialog.getByRole('group', { name: `Let the MCP server ‘net’ reach 127.0.0.1:${web.port}` });
    await expect(span).toBeVisible();
    await expect(dialog.getByTestId('approval-server')).toHaveText('net');
    await page.screenshot({ path: 'test-results/screens/mcp-server-host-question.png' });
    await span.getByRole('radio', { name: /^Always for this server/ }).check();
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('article', { name: 'Familiar' }).last()).toContainText('Fetched it.');
    expect(JSON.stringify(llm.requests[1]?.messages ?? [])).toContain('200 hello from /x');
    expect(web.requests).toEqual(['GET /x']);
    const section = await openSettingsSection(page, 'MCP servers');
    const row = section.locator('li.mcp-server[data-server="net"]');
    await expect(row.getByRole('textbox', { name: /^Hosts it may reach/ })).toHaveValue(`127.0.0.1:${web.port}`);
    await expect(row).toContainText(`network: 127.0.0.1:${web.port}`);
  } finally {
    await web.close();
  }
});
