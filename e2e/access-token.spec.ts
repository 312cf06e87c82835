import { expect, test } from './fixtures/familiar-app';

/** Tries a bridge socket from inside the page and reports whether it opened. */
const tryBridge = (path: string) =>
  new Promise<string>((resolve) => {
    const socket = new WebSocket(`ws://${location.host}${path}`);
    socket.onopen = () => {
      socket.close();
      resolve('open');
    };
    socket.onerror = () => resolve('refused');
  });

test('browser mode refuses the page and the bridge without the token', async ({ page, app }) => {
  const response = await page.goto(`${app.origin}/`);
  expect(response?.status()).toBe(401);
  await expect(page.locator('body')).toContainText('access token');

  expect(await page.evaluate(tryBridge, '/bridge')).toBe('refused');
  expect(await page.evaluate(tryBridge, '/bridge?token=guess')).toBe('refused');
  const token = new URL(app.url).searchParams.get('token') ?? '';
  // The same page with the right token gets through: the refusals above are about the token alone.
  expect(await page.evaluate(tryBridge, `/bridge?token=${token}`)).toBe('open');
});
