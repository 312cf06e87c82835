import { expect, test } from './fixtures/familiar-app';

test('the app opens with its layout and the workspace from the real core', async ({ page, app }) => {
  await page.goto(app.url);
  await expect(page.getByRole('heading', { name: 'Familiar', level: 1 })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Workspace' })).toBeVisible();
  await expect(page.getByRole('main', { name: 'Chat' })).toBeVisible();
  await expect(page.getByTestId('workspace-path')).toContainText(app.workspace);
  await expect(page.getByRole('switch')).toBeVisible();

  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await expect(settings).toContainText('Browser mode');
  await expect(settings).toContainText(app.home);
  await page.keyboard.press('Escape');
  await expect(settings).toBeHidden();

  await page.screenshot({ path: 'test-results/screens/smoke.png', fullPage: true });
});

test('the page reports no console errors under its Content-Security-Policy', async ({ page, app }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(app.url);
  await expect(page.getByTestId('workspace-path')).toContainText(app.workspace);
  expect(problems).toEqual([]);
});
