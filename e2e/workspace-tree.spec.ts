import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from './fixtures/familiar-app';
import { readyCodeView, treeRow } from './fixtures/page-helpers';

test('the tree shows the workspace with the persona overlay and follows outside changes live', async ({
  page,
  app,
}) => {
  await writeFile(join(app.workspace, 'notes.md'), '# Notes\n');
  await page.goto(app.url);
  const tree = page.getByRole('tree', { name: 'Workspace files' });
  await expect(treeRow(page, 'notes.md')).toBeVisible();
  // SOUL.md, USER.md, MEMORY.md and memory/ come from the Familiar home, not the project folder.
  await expect(treeRow(page, 'SOUL.md')).toBeVisible();
  await expect(treeRow(page, 'memory')).toBeVisible();
  await expect(tree).toBeVisible();

  // An outside program (this test) creates, renames and deletes files: the tree follows within a second.
  await writeFile(join(app.workspace, 'from-outside.md'), 'hello\n');
  await expect(treeRow(page, 'from-outside.md')).toBeVisible({ timeout: 1000 });
  await page.screenshot({ path: 'test-results/screens/workspace-tree-live.png', fullPage: true });
  await rename(join(app.workspace, 'from-outside.md'), join(app.workspace, 'renamed.md'));
  await expect(treeRow(page, 'renamed.md')).toBeVisible({ timeout: 1000 });
  await expect(treeRow(page, 'from-outside.md')).toHaveCount(0);
  await rm(join(app.workspace, 'notes.md'));
  await expect(treeRow(page, 'notes.md')).toHaveCount(0, { timeout: 1000 });
});

test('a folder of 10,000 files expands, is virtualized and reachable by keyboard', async ({ page, app }) => {
  await mkdir(join(app.workspace, 'many'));
  await Promise.all(Array.from({ length: 10_000 }, (_, i) => writeFile(join(app.workspace, 'many', `f${i}.txt`), '')));
  await page.goto(app.url);
  await treeRow(page, 'many').click();
  await expect(treeRow(page, 'f0.txt')).toBeVisible();
  // Only the rows in view exist in the page.
  expect(await page.getByRole('treeitem').count()).toBeLessThan(200);
  // End: the last row of the tree (USER.md, after the 10,000 files); five rows up is the last file of many/.
  const tree = page.getByRole('tree');
  await tree.press('End');
  await expect(treeRow(page, 'USER.md')).toHaveAttribute('aria-selected', 'true');
  for (const _ of [1, 2, 3, 4, 5]) await tree.press('ArrowUp');
  await expect(treeRow(page, 'f9999.txt')).toBeVisible();
  await expect(treeRow(page, 'f9999.txt')).toHaveAttribute('aria-selected', 'true');
  await expect(tree).toHaveAttribute('aria-activedescendant', /workspace-row-/);
});

test('ignored files are dimmed, can be hidden, and a click opens a read-only Monaco view loaded on demand', async ({
  page,
  app,
}) => {
  await writeFile(join(app.workspace, '.gitignore'), '*.log\n');
  await writeFile(join(app.workspace, 'debug.log'), 'noise\n');
  await writeFile(join(app.workspace, 'main.ts'), 'export const answer: number = 42;\n');
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));

  await page.goto(app.url);
  await expect(treeRow(page, 'debug.log')).toHaveClass(/tree-row-ignored/);
  await page.getByRole('button', { name: 'Hide ignored' }).click();
  await expect(treeRow(page, 'debug.log')).toHaveCount(0);
  await page.getByRole('button', { name: 'Hide ignored' }).click();
  await expect(treeRow(page, 'debug.log')).toBeVisible();

  expect(requested.filter((url) => url.includes('CodeView.lazy'))).toEqual([]);
  await treeRow(page, 'main.ts').click();
  const viewer = page.getByRole('region', { name: 'File main.ts' });
  await readyCodeView(viewer);
  await expect(viewer.locator('.view-lines')).toContainText('export const answer');
  // Coloured as TypeScript: Monaco's tokenizer put the keyword in its own span.
  await expect(viewer.locator('.view-lines span.mtk1, .view-lines span[class^="mtk"]').first()).toBeVisible();
  expect(requested.filter((url) => url.includes('CodeView.lazy'))).toHaveLength(1);
  await page.screenshot({ path: 'test-results/screens/file-viewer.png', fullPage: true });

  // The file changes on disk: the viewer follows.
  await writeFile(join(app.workspace, 'main.ts'), 'export const answer: number = 43;\n');
  await expect(viewer.locator('.view-lines')).toContainText('= 43');
  expect(problems).toEqual([]);
});

test('another folder can be opened by path in browser mode', async ({ page, app }) => {
  const other = join(app.home, '..', 'other-project');
  await mkdir(other);
  await writeFile(join(other, 'elsewhere.txt'), '');
  await page.goto(app.url);
  await page.getByRole('button', { name: 'Open folder…' }).click();
  await page.getByLabel('Folder to open (absolute path)').fill(join(app.home, 'nope'));
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('does not exist');
  await page.getByLabel('Folder to open (absolute path)').fill(other);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(treeRow(page, 'elsewhere.txt')).toBeVisible();
  await expect(page.getByTestId('workspace-path')).toContainText('other-project');
  // The persona files stay, whatever folder is open.
  await expect(treeRow(page, 'SOUL.md')).toBeVisible();
});
