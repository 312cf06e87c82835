import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/familiar-app';
import type { RunningApp } from './fixtures/familiar-app';
import { readyCodeView } from './fixtures/page-helpers';

test.use({ provider: 'scripted' });

/** The chat column itself (the conversation list beside it does not count). */
async function chatBox(page: Page) {
  const box = await page.locator('.chat-main').boundingBox();
  expect(box).not.toBeNull();
  return box!;
}

async function openFile(page: Page, name: string) {
  await page.getByRole('treeitem').filter({ hasText: name }).first().click();
  const viewer = await readyCodeView(page.getByRole('region', { name: `File ${name}` }));
  await expect(viewer.locator('.view-lines')).toContainText('answer');
}

/** main.ts in the workspace, the window at this size, the app open and the file shown in the viewer. */
async function openMainTs(page: Page, app: RunningApp, size: { width: number; height: number }) {
  await writeFile(join(app.workspace, 'main.ts'), 'export const answer = 42;\n');
  await page.setViewportSize(size);
  await page.goto(app.url);
  await openFile(page, 'main.ts');
  return page.getByRole('region', { name: 'File main.ts' });
}

test('at 1280×820 a file opens beside a chat of at least 420 px; panels collapse by button and shortcut, remembered', async ({
  page,
  app,
}) => {
  const viewer = await openMainTs(page, app, { width: 1280, height: 820 });

  const chat = await chatBox(page);
  expect(chat.width).toBeGreaterThanOrEqual(420);
  // Side by side, not on top of each other.
  const viewerBox = (await viewer.boundingBox())!;
  expect(viewerBox.x).toBeGreaterThanOrEqual(chat.x + chat.width - 1);
  await expect(page.getByRole('navigation', { name: 'Conversations' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Workspace' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/layout-1280-file-open.png' });

  // The buttons collapse both side panels; the chat takes the room.
  const filesToggle = page.getByRole('button', { name: 'Files', exact: true });
  await expect(filesToggle).toHaveAttribute('aria-expanded', 'true');
  await filesToggle.click();
  await expect(page.getByRole('complementary', { name: 'Workspace' })).toBeHidden();
  await expect(filesToggle).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('Control+Shift+B');
  await expect(page.getByRole('navigation', { name: 'Conversations' })).toBeHidden();
  expect((await chatBox(page)).width).toBeGreaterThan(chat.width + 150);

  // Remembered across a reload.
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Message to Familiar' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Workspace' })).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'Conversations' })).toBeHidden();
  await page.keyboard.press('Control+b');
  await expect(page.getByRole('complementary', { name: 'Workspace' })).toBeVisible();
  await page.getByRole('button', { name: 'Conversations', exact: true }).click();
  await expect(page.getByRole('navigation', { name: 'Conversations' })).toBeVisible();
});

test('at 760×520 the chat keeps its width: the file and the lists float over it instead', async ({ page, app }) => {
  const viewer = await openMainTs(page, app, { width: 760, height: 520 });

  const chat = await chatBox(page);
  expect(chat.width).toBeGreaterThanOrEqual(420);
  // Nothing wider than the window: no horizontal scrolling to reach the chat.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(760);
  await page.screenshot({ path: 'test-results/screens/layout-760-file-open.png' });

  // The file floats over the chat; Esc puts it away and the chat is all there.
  await viewer.locator('.monaco-editor').click();
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();

  // The conversation list does not fit beside the chat: its toggle shows it floating, Esc hides it.
  const list = page.getByRole('navigation', { name: 'Conversations' });
  await expect(list).toBeHidden();
  await page.getByRole('button', { name: 'Conversations', exact: true }).click();
  await expect(list).toBeVisible();
  expect((await chatBox(page)).width).toBeGreaterThanOrEqual(420);
  await page.screenshot({ path: 'test-results/screens/layout-760-list-floating.png' });
  await list.getByRole('searchbox', { name: 'Search conversations' }).press('Escape');
  await expect(list).toBeHidden();
});

test('the file pane resizes by drag and by keyboard, never below the chat minimum, and keeps its width', async ({
  page,
  app,
}) => {
  const viewer = await openMainTs(page, app, { width: 1600, height: 900 });
  const handle = page.getByRole('separator', { name: /file pane/ });
  const value = async () => Number(await handle.getAttribute('aria-valuenow'));
  const start = await value();
  expect(Math.abs((await viewer.boundingBox())!.width - start)).toBeLessThanOrEqual(1);

  // Keyboard: Left moves the handle left, widening the file; End goes as far as the chat allows.
  await handle.focus();
  await page.keyboard.press('ArrowRight');
  expect(await value()).toBe(start - 16);
  await page.keyboard.press('End');
  expect(await value()).toBe(Number(await handle.getAttribute('aria-valuemax')));
  expect((await chatBox(page)).width).toBeGreaterThanOrEqual(420);

  // Drag: 100 px to the right narrows the file by 100 px.
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+ArrowLeft');
  const before = await value();
  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + 200);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 100, box.y + 200, { steps: 5 });
  await page.mouse.up();
  expect(await value()).toBe(Math.max(360, before - 100));
  const chosen = await value();

  await page.reload();
  await openFile(page, 'main.ts');
  expect(await value()).toBe(chosen);
  await page.screenshot({ path: 'test-results/screens/layout-file-pane-resized.png' });
});
