import { defineConfig } from '@playwright/test';

// Playwright cannot download its own browsers here: drive Debian's Chromium.
export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  outputDir: 'test-results/artifacts',
  // One worker: the machines have two cores and the app under test needs one of them.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    trace: 'retain-on-failure',
    // Every run, and so every CI run, starts from a cold browser: launch() gives Chromium a new
    // temporary profile (deleted at exit) and each test a new incognito context, so no HTTP or code
    // cache carries over. Do not pass --user-data-dir. Specs that open Monaco wait for its first
    // load with readyCodeView (e2e/fixtures/page-helpers.ts).
    launchOptions: {
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
