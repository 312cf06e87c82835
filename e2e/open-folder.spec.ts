import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from './fixtures/familiar-app';

test('Ctrl+O asks for another folder (browser mode types the path), even with the files panel hidden', async ({
  page,
  app,
}) => {
  const other = join(app.home, '..', 'picked-project');
  await mkdir(other);
  await writeFile(join(other, 'picked.txt'), '');
  await page.goto(app.url);
  const files = page.getByRole('complementary', { name: 'Workspace' });
  await page.getByRole('button', { name: 'Files', exact: true }).click();
  await expect(files).toBeHidden();

  await page.keyboard.press('Control+o');
  await expect(files).toBeVisible();
  const field = page.getByLabel('Folder to open (absolute path)');
  await expect(field).toBeFocused();
  // Browser mode has no native dialog: the page is never offered one.
  await expect(page.getByRole('button', { name: 'Choose a folder…' })).toHaveCount(0);
  await field.fill(other);
  await field.press('Enter');
  await expect(page.getByTestId('workspace-path')).toContainText('picked-project');
  await expect(field).toBeHidden();
});
