import { runSmokeTest } from '../main/front-doors/smoke/run-smoke-test';
import { callFamiliar, expect, startFamiliar, test } from './fixtures/familiar-app';
import { expectedSmokeChecks } from '../main/test-support/smoke-checks';
import type { Page } from '@playwright/test';

/**
 * `Familiar --smoke-test` is what the release workflow starts on every runner. Electron cannot run
 * here, so the same smoke test (main/front-doors/smoke) runs against browser mode: the built core in its own
 * process, the built renderer in Chromium. Only the page differs from the desktop run: Playwright's
 * instead of the Electron window, and no preload bridge (window.familiar must be absent).
 */
async function smokeTest(page: Page, env: Record<string, string> = {}) {
  const { app, stop } = await startFamiliar({ env });
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
    const confinement = await callFamiliar(app, 'app.confinement', {});
    if (!confinement.ok) throw new Error(confinement.error.message);
    return { summary, mode: confinement.value.mode };
  } finally {
    await stop();
  }
}

test('the --smoke-test checks pass against the built app in browser mode', async ({ page }) => {
  const { summary, mode } = await smokeTest(page);
  expect(summary.checks.map((check) => check.name)).toEqual(expectedSmokeChecks);
  // Where the server cannot confine a command (no bwrap, user namespaces off), the smoke test must
  // fail on the confinement check alone.
  if (mode.confined) {
    expect(summary.checks.filter((check) => !check.ok)).toEqual([]);
    expect(summary.ok).toBe(true);
  } else {
    expect(summary.checks.filter((check) => !check.ok).map((check) => check.name)).toEqual(['confinement']);
  }
  await page.screenshot({ path: 'test-results/screens/smoke-test-mode.png' });
});

test('the confinement check fails when the command runs unconfined (FAMILIAR_UNCONFINED=1)', async ({ page }) => {
  const { summary } = await smokeTest(page, { FAMILIAR_UNCONFINED: '1' });
  expect(summary.ok).toBe(false);
  expect(summary.checks.filter((check) => !check.ok)).toEqual([
    {
      name: 'confinement',
      ok: false,
      detail:
        'the command ran UNCONFINED: FAMILIAR_UNCONFINED=1 is set in the environment Familiar was started with. ' +
        "(inside written, outside written, Familiar's settings read)",
    },
  ]);
});
