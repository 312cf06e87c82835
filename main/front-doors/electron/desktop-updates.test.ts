import type { BrowserWindow, MessageBoxOptions } from 'electron';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../platform/logging/logger';

// The Electron binary cannot run here (and importing it would try to download it): stand in for it,
// for electron-updater, and for the build facts the release pipeline bakes in.
const shown: MessageBoxOptions[] = [];
vi.mock('electron', () => ({
  app: { isPackaged: true },
  dialog: {
    showMessageBox: (_window: unknown, options: MessageBoxOptions) => {
      shown.push(options);
      return Promise.resolve({ response: 1 });
    },
  },
}));
const checks: string[] = [];
vi.mock('electron-updater', () => {
  const autoUpdater = {
    autoDownload: true,
    autoInstallOnAppQuit: true,
    logger: null,
    on: () => undefined,
    checkForUpdates: () => {
      checks.push('check');
      return Promise.resolve({ isUpdateAvailable: true, updateInfo: { version: '0.2.0' } });
    },
    downloadUpdate: () => Promise.resolve([]),
    quitAndInstall: () => undefined,
  };
  // Node hands an ESM importer this CommonJS package as `default` (see desktop-updates.ts).
  return { autoUpdater, default: { autoUpdater } };
});
const build = vi.hoisted(() => ({ signed: false }));
vi.mock('./build-info', () => ({ buildInfo: build }));

const { createDesktopUpdates } = await import('./desktop-updates');

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const realPlatform = process.platform;
const onPlatform = (platform: NodeJS.Platform) => Object.defineProperty(process, 'platform', { value: platform });

afterEach(() => {
  onPlatform(realPlatform);
  shown.length = 0;
  checks.length = 0;
});

describe('desktop updates and the build the release pipeline made', () => {
  it('never offers an update to an unsigned macOS app, and says why when asked', async () => {
    onPlatform('darwin');
    build.signed = false;
    const updates = createDesktopUpdates({} as BrowserWindow, '0.1.0', quiet);
    expect(await updates.check('startup')).toBe('unsupported');
    expect(await updates.check('menu')).toBe('unsupported');
    expect(checks).toEqual([]);
    expect(shown).toHaveLength(1);
    expect(shown[0]?.detail).toContain('not code-signed');
  });

  it.each([
    ['a signed macOS app', 'darwin', true],
    ['an unsigned Windows install: NSIS installs them', 'win32', false],
  ] as const)('offers updates to %s', async (_build, platform, signed) => {
    onPlatform(platform);
    build.signed = signed;
    const updates = createDesktopUpdates({} as BrowserWindow, '0.1.0', quiet);
    expect(await updates.check('startup')).toBe('declined');
    expect(checks).toEqual(['check']);
    expect(shown[0]?.message).toBe('Familiar 0.2.0 is available.');
  });
});
