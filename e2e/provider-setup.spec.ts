import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { reply, startScriptedLlmServer } from './fixtures/scripted-llm-server';
import { expect, test } from './fixtures/familiar-app';
import { sendMessage } from './fixtures/page-helpers';

test('first run: set up a provider in the UI, test the connection, save, and chat', async ({ page, app }) => {
  const server = await startScriptedLlmServer({ apiKey: 'sk-right-key' });
  try {
    await page.goto(app.url);
    const setup = page.getByRole('region', { name: 'Choose the model Familiar talks to' });
    await expect(setup).toBeVisible();
    await setup.getByRole('radio', { name: 'OpenAI-compatible server' }).check();
    await setup.getByRole('textbox', { name: 'Model' }).fill('scripted-model');
    await setup.getByRole('textbox', { name: 'Base URL' }).fill(`${server.url}/v1`);
    const key = setup.getByLabel('API key');
    await key.fill('sk-wrong-key');
    // Browser mode keeps keys in a 0600 file, and says so.
    await expect(setup.getByText(/Keys are stored unencrypted in secrets\.json/)).toBeVisible();

    await setup.getByRole('button', { name: 'Test connection' }).click();
    await expect(
      setup.getByText('The provider rejected the API key. Check the key in the provider settings.'),
    ).toBeVisible();

    await key.fill('sk-right-key');
    server.enqueue(reply.text('ready'));
    await setup.getByRole('button', { name: 'Test connection' }).click();
    await expect(setup.getByText(/^Connected: scripted-model answered in \d+ ms\.$/)).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/provider-setup.png' });

    await setup.getByRole('button', { name: 'Save' }).click();
    await expect(setup).toBeHidden();

    // The key went to the 0600 secrets file, never into settings.json.
    const settings = JSON.parse(await readFile(join(app.home, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(settings['provider']).toMatchObject({ kind: 'openai-compatible', model: 'scripted-model' });
    expect(JSON.stringify(settings)).not.toContain('sk-right-key');
    expect((await stat(join(app.home, 'secrets.json'))).mode & 0o777).toBe(0o600);

    server.enqueue(reply.text('Hello! The setup works.'));
    await sendMessage(page, 'Are you there?');
    await expect(page.locator('article[data-status="complete"]')).toContainText('Hello! The setup works.');
    expect(server.requests.at(-1)?.headers['authorization']).toBe('Bearer sk-right-key');

    // Reopened from the header, the form knows a key is saved but never shows it.
    await page.reload();
    await page.getByRole('button', { name: 'Model: scripted-model. Change the model provider' }).click();
    const dialog = page.getByRole('dialog', { name: 'Model provider' });
    await expect(dialog.getByText(/A key is saved/)).toBeVisible();
    await expect(dialog.getByLabel('API key')).toHaveValue('');
    expect(await page.content()).not.toContain('sk-right-key');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // The same form is the provider section of Settings: what is saved, and the key still never shown.
    await page.keyboard.press('Control+,');
    const section = page.getByRole('dialog', { name: 'Settings' }).getByRole('region', { name: 'Model provider' });
    await expect(section.getByLabel('Model', { exact: true })).toHaveValue('scripted-model');
    await expect(section.getByLabel('Base URL')).toHaveValue(`${server.url}/v1`);
    await expect(section.getByLabel('API key')).toHaveValue('');
    await expect(section.getByLabel('API key')).toHaveAttribute('type', 'password');
    await expect(section.getByText(/A key is saved/)).toBeVisible();
    await section.screenshot({ path: 'test-results/screens/settings-provider.png' });
  } finally {
    await server.close();
  }
});
