import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultPolicy } from '../shared/policy';
import { expect, test } from './fixtures/familiar-app';

test('the policy editor refuses an invalid table with the core’s message and saves a valid one', async ({
  page,
  app,
}) => {
  await page.goto(app.url);
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  const rows = settings.getByTestId('policy-row');
  await expect(rows).toHaveCount(defaultPolicy().rules.length);

  // Without the catch-all row the table is invalid: the core refuses it and keeps the current policy.
  await settings.getByRole('button', { name: 'Remove row 5' }).click();
  await settings.getByRole('button', { name: 'Save policy' }).click();
  await expect(settings.getByTestId('policy-error')).toContainText('catch-all');
  await expect(readFile(join(app.home, 'policy.json'), 'utf8')).rejects.toThrow();
  await page.screenshot({ path: 'test-results/screens/settings-policy-refused.png', fullPage: true });
  await settings.getByRole('button', { name: 'Discard changes' }).click();
  await expect(rows).toHaveCount(5);

  // A new row above the catch-all: private/** may not even be read.
  await settings.getByRole('button', { name: 'Add a row' }).click();
  await expect(rows).toHaveCount(6);
  await settings.getByLabel('Pattern of row 5').fill('private/**');
  await settings.getByLabel('Read in row 5').selectOption('deny');
  await settings.getByLabel('Note of row 5').fill('Never read my private folder');
  await settings.getByRole('button', { name: 'Move row 5 up' }).click();
  await expect(settings.getByLabel('Pattern of row 4')).toHaveValue('private/**');
  await settings.getByRole('button', { name: 'Save policy' }).click();
  await expect(settings.getByText('Policy saved.')).toBeVisible();
  const saved = JSON.parse(await readFile(join(app.home, 'policy.json'), 'utf8')) as ReturnType<typeof defaultPolicy>;
  expect(saved.rules[3]).toEqual({
    pattern: 'private/**',
    decisions: { read: 'deny' },
    memory: false,
    note: 'Never read my private folder',
  });

  await settings.getByRole('button', { name: 'Reset to defaults…' }).click();
  await settings.getByRole('button', { name: 'Reset', exact: true }).click();
  await expect(rows).toHaveCount(5);
  expect(JSON.parse(await readFile(join(app.home, 'policy.json'), 'utf8'))).toEqual(defaultPolicy());
});

test('theme and language apply at once; the persona files show where they live', async ({ page, app }) => {
  await page.goto(app.url);
  await page.keyboard.press('Control+,');
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByLabel('Theme').selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(settings.getByTestId('persona-file')).toHaveCount(4);
  await expect(settings.getByTestId('persona-file').first()).toContainText(join(app.home, 'workspace', 'SOUL.md'));
  await expect(settings.getByRole('region', { name: 'Model provider' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/settings-dark.png', fullPage: true });

  await settings.getByLabel('Language', { exact: true }).selectOption('ru');
  await expect(page.getByRole('dialog', { name: 'Настройки' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  const saved = JSON.parse(await readFile(join(app.home, 'settings.json'), 'utf8')) as { ui: unknown };
  expect(saved.ui).toEqual({ theme: 'dark', language: 'ru' });
});

test('the ? key opens the keyboard shortcuts', async ({ page, app }) => {
  await page.goto(app.url);
  await expect(page.getByTestId('workspace-path')).toContainText(app.workspace);
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toContainText('Approve the request on screen');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
});
