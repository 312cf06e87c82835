import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { callFamiliar, expect, startFamiliar, test } from './fixtures/familiar-app';
import { openSettingsSection } from './fixtures/page-helpers';

test('Settings → Commands says whether commands run confined, as the core probed it, and saves readable home folders', async ({
  page,
  app,
}) => {
  const answer = await callFamiliar(app, 'app.confinement', {});
  if (!answer.ok) throw new Error(answer.error.message);
  await page.goto(app.url);
  const commands = await openSettingsSection(page, 'Commands');
  const status = commands.getByTestId('confinement-status');
  await expect(status).toBeVisible();
  const { mode } = answer.value;
  if (mode.confined) {
    await expect(status).toHaveText(/^Commands run confined by the operating system \(bubblewrap\)/);
  } else {
    await expect(status).toContainText('Commands are not confined');
    await expect(status).toContainText(`Why: ${mode.reason}`);
  }
  await expect(commands.getByTestId('confinement-command')).toContainText(
    'writes the workspace; read-only there: SOUL.md',
  );
  await expect(commands.getByTestId('confinement-command')).toContainText('network only to the hosts you allow');
  await page.screenshot({ path: 'test-results/screens/settings-commands-confinement.png', fullPage: true });

  const field = commands.getByRole('textbox', { name: 'Also readable by commands (folders or files in your home)' });
  await field.fill('projects/shared, .ssh');
  await field.press('Enter');
  await expect(commands.getByRole('alert')).toHaveText('Cannot be made readable: .ssh');
  await field.fill('projects/shared');
  await field.press('Enter');
  await expect
    .poll(async () => {
      // Absent until the first save.
      const text = await readFile(join(app.home, 'settings.json'), 'utf8').catch(() => '{}');
      const saved = JSON.parse(text) as {
        commands?: { readableInHome?: string[] };
      };
      return saved.commands?.readableInHome;
    })
    .toEqual(['projects/shared']);
  const after = await callFamiliar(app, 'app.confinement', {});
  expect(after.ok && after.value.readableInHome.map((path) => path.endsWith(join('projects', 'shared')))).toEqual([
    true,
  ]);
});

test('an unconfined core says so in Settings → Commands and Safety, with the reason and the fix', async ({ page }) => {
  const { app, stop } = await startFamiliar({ env: { FAMILIAR_UNCONFINED: '1' } });
  try {
    await page.goto(app.url);
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    for (const section of ['Commands', 'Safety']) {
      const status = settings.getByRole('region', { name: section }).getByTestId('confinement-status');
      await expect(status).toContainText('Commands are not confined: they run with all your rights');
      await expect(status).toContainText(
        'Why: FAMILIAR_UNCONFINED=1 is set in the environment Familiar was started with.',
      );
      await expect(status).toContainText('How to fix it: Start Familiar without FAMILIAR_UNCONFINED.');
    }
    await settings.getByRole('region', { name: 'Commands' }).getByTestId('confinement-status').scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/screens/settings-commands-unconfined.png', fullPage: true });
  } finally {
    await stop();
  }
});

test('Settings → Commands lists the hosts commands may reach without asking, revokes one, and saves the switch for confined commands without network', async ({
  page,
  app,
}) => {
  const seeded = await callFamiliar(app, 'settings.update', {
    commands: {
      allowedHosts: [
        { host: 'registry.npmjs.org', port: 443, workspace: null },
        { host: 'pypi.org', workspace: '/srv/project' },
      ],
    },
  });
  if (!seeded.ok) throw new Error(seeded.error.message);
  await page.goto(app.url);
  const commands = await openSettingsSection(page, 'Commands');
  const hosts = commands.getByRole('list', { name: 'Hosts commands may reach without asking' });
  await expect(hosts.getByRole('listitem')).toHaveText([
    'registry.npmjs.org:443 in every workspace Revoke',
    'pypi.org in /srv/project Revoke',
  ]);
  await page.screenshot({ path: 'test-results/screens/settings-commands-allowed-hosts.png', fullPage: true });
  await commands.getByRole('button', { name: 'Revoke registry.npmjs.org:443' }).click();
  await expect(hosts.getByRole('listitem')).toHaveText(['pypi.org in /srv/project Revoke']);
  const saved = async () => {
    const text = await readFile(join(app.home, 'settings.json'), 'utf8').catch(() => '{}');
    return (
      JSON.parse(text) as { commands?: { allowedHosts?: { host: string }[]; confinedOfflineWithoutAsking?: boolean } }
    ).commands;
  };
  await expect.poll(async () => (await saved())?.allowedHosts?.map((entry) => entry.host)).toEqual(['pypi.org']);

  const offline = commands.getByRole('checkbox', { name: /Confined commands without network run without asking/ });
  await expect(offline).not.toBeChecked();
  await offline.check();
  await expect.poll(async () => (await saved())?.confinedOfflineWithoutAsking).toBe(true);
});
