import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { reply } from './fixtures/scripted-llm-server';
import type { ScriptedLlmServer } from './fixtures/scripted-llm-server';
import { expect, test } from './fixtures/familiar-app';
import type { RunningApp } from './fixtures/familiar-app';
import { readyCodeView, sendMessage } from './fixtures/page-helpers';

// The app's CSP (rightly) refuses axe's injected script: let the test context bypass it.
test.use({ provider: 'scripted', bypassCSP: true });

/**
 * A rename through the real typescript-language-server, reviewed in the approval dialog as a
 * multi-file diff; then the problem counts the server's diagnostics put in the tree and header.
 */
const project: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { strict: true, target: 'ES2022', module: 'ESNext', lib: ['ES2022'] },
    include: ['src'],
  }),
  'src/money.ts': `export function formatPrice(cents: number): string {
  return (cents / 100).toFixed(2);
}
`,
  'src/cart.ts': `import { formatPrice } from './money';

export class Cart {
  cents = 0;

  label(): string {
    return formatPrice(this.cents);
  }
}
`,
  'src/main.ts': `import { Cart } from './cart';
import { formatPrice } from './money';

export const shown = [new Cart().label(), formatPrice(5)];
`,
};
const sources = ['src/cart.ts', 'src/main.ts', 'src/money.ts'];

async function writeProject(app: RunningApp): Promise<void> {
  await mkdir(join(app.workspace, 'src'));
  for (const [path, text] of Object.entries(project)) await writeFile(join(app.workspace, path), text);
}

const onDisk = (app: RunningApp) => Promise.all(sources.map((path) => readFile(join(app.workspace, path), 'utf8')));

/** Serious and critical axe findings inside one element, one line each. */
async function seriousFindings(page: Page, include: string): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .include(include)
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`));
}

/** The model asks for the rename; the dialog opens once the server has computed it. */
async function askForRename(page: Page, llm: ScriptedLlmServer, message: string, callId: string) {
  llm.enqueue(
    reply.toolCall(
      'code_rename',
      { symbol: 'formatPrice', path: 'src/money.ts', new_name: 'formatCents' },
      'Renaming it everywhere.',
      callId,
    ),
    reply.text('Done with the rename.'),
  );
  await sendMessage(page, message);
  const dialog = page.getByRole('dialog', { name: 'The assistant asks for your approval' });
  // The first request starts the language server: it loads the project before it answers.
  await expect(dialog).toBeVisible({ timeout: 60_000 });
  return dialog;
}

test('a rename across three files is reviewed file by file; reject changes nothing, approve changes all three', async ({
  page,
  app,
  llm,
}) => {
  test.setTimeout(180_000);
  await writeProject(app);
  const original = await onDisk(app);
  await page.goto(app.url);
  // No language server has run: no problem counts anywhere.
  await expect(page.getByRole('treeitem', { name: /^src/ })).toBeVisible();
  await expect(page.getByTestId('problems-total')).toHaveCount(0);

  let dialog = await askForRename(page, llm, 'Rename formatPrice to formatCents.', 'call-rename-1');
  await expect(dialog).toContainText('Rename formatPrice to formatCents in 3 files');
  await expect(dialog.getByTestId('approval-path')).toHaveText(sources.join(', '));
  // Allowing "this file" for the conversation would allow any later change to the whole workspace.
  await expect(dialog.getByRole('checkbox')).toHaveCount(0);
  const files = dialog.getByRole('tablist', { name: 'Files changed (3)' });
  const tabs = files.getByRole('tab');
  await expect(tabs).toHaveCount(3);
  for (const [index, path] of sources.entries()) {
    await expect(tabs.nth(index)).toHaveAttribute('data-path', path);
    await expect(tabs.nth(index)).toContainText(/\d+ changes?$/);
  }
  const diff = (await readyCodeView(dialog.getByRole('tabpanel'))).locator('.monaco-diff-editor');
  await expect(diff.locator('.editor.modified .view-lines')).toContainText('formatCents(this.cents)');
  await expect(diff.locator('.editor.original .view-lines')).toContainText('formatPrice(this.cents)');

  // The keyboard reaches the list in one Tab stop and walks it with the arrow keys.
  await tabs.nth(0).focus();
  await page.keyboard.press('ArrowDown');
  await expect(tabs.nth(1)).toBeFocused();
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(diff.locator('.editor.modified .view-lines')).toContainText('formatCents(5)');
  await page.keyboard.press('End');
  await expect(tabs.nth(2)).toHaveAttribute('aria-selected', 'true');
  await expect(diff.locator('.editor.modified .view-lines')).toContainText('export function formatCents');
  await page.keyboard.press('Home');
  await expect(tabs.nth(0)).toHaveAttribute('aria-selected', 'true');
  // A change to several files applies as computed: there is no edit mode to offer.
  await expect(dialog.getByRole('button', { name: 'Edit, then approve' })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screens/code-rename-dialog.png' });
  expect(await seriousFindings(page, '.approval-dialog')).toEqual([]);

  await dialog.getByRole('button', { name: 'Reject…' }).click();
  await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('article', { name: 'Familiar' }).last()).toContainText('Done with the rename.');
  expect(await onDisk(app)).toEqual(original);

  dialog = await askForRename(page, llm, 'Please do rename it after all.', 'call-rename-2');
  await expect(dialog.getByRole('tab')).toHaveCount(3);
  await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await onDisk(app)).filter((text) => text.includes('formatCents')).length).toBe(3);
  for (const text of await onDisk(app)) expect(text).not.toContain('formatPrice');
  expect(await onDisk(app)).toEqual(original.map((text) => text.replaceAll('formatPrice', 'formatCents')));

  // An edit that introduces a type error: the running server's diagnostics reach the tree and header.
  llm.enqueue(
    reply.toolCall(
      'edit_file',
      { path: 'src/main.ts', oldText: 'formatCents(5)', newText: "formatCents('5')" },
      'Passing a string.',
      'call-edit',
    ),
    reply.text('Edited.'),
  );
  await sendMessage(page, 'Pass the price as a string.');
  dialog = page.getByRole('dialog', { name: 'The assistant asks for your approval' });
  await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('treeitem', { name: /^src/ }).click();
  const mainRow = page.getByRole('treeitem', { name: /^main\.ts/ });
  await expect(mainRow.locator('.problem-counts')).toContainText('1 error', { timeout: 30_000 });
  await expect(page.getByTestId('problems-total')).toContainText('1 error');
  await expect(page.getByRole('treeitem', { name: /^cart\.ts/ }).locator('.problem-counts')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screens/code-rename-problems.png' });
});
