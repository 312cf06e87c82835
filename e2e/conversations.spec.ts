import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from './fixtures/familiar-app';

test.use({ provider: 'scripted' });

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

test('conversations: new, rename, search, delete and restore; drafts survive a reload', async ({ page, app }) => {
  await page.goto(app.url);
  const list = page.getByRole('navigation', { name: 'Conversations' });
  await expect(list.getByText('No conversations yet.')).toBeVisible();

  await list.getByRole('button', { name: 'New conversation' }).click();
  await expect(list.getByRole('button', { name: /^New conversation/ }).last()).toHaveAttribute('aria-current', 'page');

  // Rename in place.
  await list.getByRole('button', { name: 'Rename “New conversation”' }).click();
  const title = list.getByRole('textbox', { name: 'New title' });
  await title.fill('Trip plans');
  await title.press('Enter');
  await expect(list.getByRole('button', { name: /^Trip plans/ })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'Trip plans' })).toBeVisible();

  // A draft, never sent, survives a reload.
  const composer = page.getByRole('textbox', { name: 'Message to Familiar' });
  await composer.fill('Pack the tent\nand the stove');
  await page.reload();
  await expect(page.getByRole('heading', { level: 3, name: 'Trip plans' })).toBeVisible();
  await expect(composer).toHaveValue('Pack the tent\nand the stove');

  // Ctrl+N starts another conversation, with its own (empty) draft.
  await page.keyboard.press('Control+n');
  await expect(page.getByRole('heading', { level: 3, name: 'New conversation' })).toBeVisible();
  await expect(composer).toHaveValue('');
  await list.getByRole('button', { name: 'Rename “New conversation”' }).click();
  await list.getByRole('textbox', { name: 'New title' }).fill('Tax return');
  await list.getByRole('textbox', { name: 'New title' }).press('Enter');

  // Search titles.
  await list.getByRole('searchbox', { name: 'Search conversations' }).fill('trip');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem')).toContainText('Trip plans');
  await list.getByRole('searchbox', { name: 'Search conversations' }).fill('');
  await expect(list.getByRole('listitem')).toHaveCount(2);

  // Delete to the trash, then undo.
  await list.getByRole('button', { name: /^Trip plans/ }).click();
  const tripId = await page.evaluate(() => localStorage.getItem('familiar.activeConversation'));
  expect(tripId).not.toBeNull();
  await list.getByRole('button', { name: 'Move “Trip plans” to the trash' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('status')).toContainText('“Trip plans” moved to the trash.');
  expect(await exists(join(app.home, 'trash', 'conversations', `${tripId}.jsonl`))).toBe(true);
  await page.screenshot({ path: 'test-results/screens/conversations-deleted.png' });

  await list.getByRole('button', { name: 'Undo' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(page.getByRole('heading', { level: 3, name: 'Trip plans' })).toBeVisible();
  await expect(composer).toHaveValue('Pack the tent\nand the stove');
  expect(await exists(join(app.home, 'conversations', `${tripId}.jsonl`))).toBe(true);
  await page.screenshot({ path: 'test-results/screens/conversations.png' });
});
