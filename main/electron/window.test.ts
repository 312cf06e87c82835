import { describe, expect, it, vi } from 'vitest';

// The Electron binary cannot run here (and importing it would try to download it): stand in for it.
vi.mock('electron', () => ({ BrowserWindow: class {} }));

const { mainWindowOptions } = await import('./window');

describe('mainWindowOptions', () => {
  it('isolates and sandboxes the page', () => {
    const { webPreferences } = mainWindowOptions('/app/out/preload/index.cjs');
    expect(webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });
});
