import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { reply } from './fixtures/scripted-llm-server';
import { expect, test } from './fixtures/familiar-app';
import { readyCodeView, sendMessage } from './fixtures/page-helpers';

// The app's CSP (rightly) refuses axe's injected script: let the test context bypass it.
test.use({ provider: 'scripted', bypassCSP: true });

/** Serious and critical findings, one line each, so a failure reads as a to-do list. */
async function seriousFindings(page: Page, include?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']);
  const results = await (include === undefined ? builder : builder.include(include)).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map(
        (node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')} — ${violation.help}`,
      ),
    );
}

test('axe finds nothing serious on the main screen with a file open, ignored files shown', async ({ page, app }) => {
  await writeFile(join(app.workspace, '.gitignore'), '*.log\n');
  await writeFile(join(app.workspace, 'debug.log'), 'noise\n');
  await writeFile(join(app.workspace, 'main.ts'), 'export const answer = 42;\n');
  await page.setViewportSize({ width: 1280, height: 820 });
  await page.goto(app.url);
  await page.getByRole('treeitem').filter({ hasText: 'main.ts' }).first().click();
  const viewer = await readyCodeView(page.getByRole('region', { name: 'File main.ts' }));
  await expect(viewer.locator('.view-lines')).toContainText('answer');
  await expect(page.getByRole('treeitem').filter({ hasText: 'debug.log' })).toBeVisible();
  expect(await seriousFindings(page)).toEqual([]);
});

test('axe finds nothing serious in the tools popover, which the keyboard reaches and scrolls', async ({
  page,
  app,
}) => {
  await page.goto(app.url);
  const button = page.getByRole('button', { name: /^Tools \(\d+\)$/ });
  await button.focus();
  await page.keyboard.press('Enter');
  const popover = page.getByRole('dialog', { name: 'Tools the assistant can use now' });
  await expect(popover).toBeFocused();
  expect(await seriousFindings(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(button).toBeFocused();
});

test('axe finds nothing serious in the settings and shortcuts dialogs', async ({ page, app }) => {
  await page.goto(app.url);
  await expect(page.getByRole('textbox', { name: 'Message to Familiar' })).toBeVisible();
  await page.keyboard.press('Control+,');
  await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible();
  // The section list beside the page takes the keyboard to a section's heading.
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('button', { name: 'About' }).click();
  await expect(page.locator('#settings-about')).toBeFocused();
  await page.screenshot({ path: 'test-results/screens/settings-sections.png' });
  expect(await seriousFindings(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  expect(await seriousFindings(page)).toEqual([]);
});

test('axe finds nothing serious in the approval dialog, its diff included', async ({ page, app, llm }) => {
  await writeFile(join(app.workspace, 'notes.md'), '# Notes\n\nBuy milk.\n');
  llm.enqueue(
    reply.toolCall(
      'edit_file',
      { path: 'notes.md', oldText: 'Buy milk.', newText: 'Buy oat milk.' },
      'Fixing it.',
      'c1',
    ),
    reply.text('Done.'),
  );
  await page.goto(app.url);
  await sendMessage(page, 'Make it oat milk.');
  const dialog = page.getByRole('dialog', { name: 'The assistant asks for your approval' });
  const diff = await readyCodeView(dialog);
  await expect(diff.locator('.editor.modified .view-lines')).toContainText('Buy oat milk.');
  expect(await seriousFindings(page)).toEqual([]);
  // Editing the proposal (the right side becomes writable) changes the editors' names: still named.
  await dialog.getByRole('button', { name: 'Edit, then approve' }).click();
  await expect(dialog.getByRole('button', { name: 'Approve my version' })).toBeVisible();
  await readyCodeView(dialog);
  expect(await seriousFindings(page)).toEqual([]);
});
