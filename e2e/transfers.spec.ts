import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from './fixtures/familiar-app';

test('picking files uploads them into uploads/ over the bridge; a bad name is refused on screen', async ({
  page,
  app,
}) => {
  await page.goto(app.url);
  const picker = page.getByTestId('upload-input');
  await picker.setInputFiles([
    { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes\n\nПривет.\n') },
    { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('second\n') },
  ]);
  await expect(page.getByText('Uploaded notes.md to uploads/notes.md')).toBeVisible();
  await expect(page.getByText('Uploaded notes (1).md to uploads/notes (1).md')).toBeVisible();
  expect(await readFile(join(app.workspace, 'uploads', 'notes.md'), 'utf8')).toBe('# Notes\n\nПривет.\n');
  expect(await readFile(join(app.workspace, 'uploads', 'notes (1).md'), 'utf8')).toBe('second\n');

  await picker.setInputFiles([{ name: 'a;rm -rf', mimeType: 'text/plain', buffer: Buffer.from('x') }]);
  await expect(page.getByRole('alert').filter({ hasText: 'Could not upload a;rm -rf' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/uploads.png', fullPage: true });
});
