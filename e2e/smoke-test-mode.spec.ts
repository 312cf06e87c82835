import { runSmokeTest } from '../main/front-doors/smoke/run-smoke-test';
import { callFamiliar, expect, startFamiliar, test } from './fixtures/familiar-app';
import { expectedSmokeChecks } from '../main/test-support/smoke-checks';

/**
 * `Familiar --smoke-test` is what the release workflow starts on every runner. Electron cannot run
 * here, so the same smoke test (main/front-doors/smoke) runs against browser mode: the built core in its own
 * process, the built renderer in Chromium. Only the page differs from the desktop run: Playwright's
 * instead of the Electron window, and no preload bridge (window.familiar must be absent).
 */
test('the --smoke-test checks pass against the built app in browser mode', async ({ page }) => {
  const { app, stop } = await startFamiliar();
  try {
    const pageErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));

    const summary = await runSmokeTest({
      core: { invoke: (name, input) => callFamiliar(app, name, input) },
      page: {
        load: async () => {
          await page.goto(app.url);
        },
        evaluate: (source) => page.evaluate(source),
        errors: () => pageErrors,
      },
      bridge: 'none',
      conversationTimeoutMs: 20_000,
      facts: { mode: 'browser' },
    });

    expect(summary.checks.filter((check) => !check.ok)).toEqual([]);
    expect(summary.ok).toBe(true);
    expect(summary.checks.map((check) => check.name)).toEqual(expectedSmokeChecks);
    await page.screenshot({ path: 'test-results/screens/smoke-test-mode.png' });
  } finally {
    await stop();
  }
});
