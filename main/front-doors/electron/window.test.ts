import type { BrowserWindowConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';

const created: { options: BrowserWindowConstructorOptions; calls: string[]; readyToShow?: () => void }[] = [];

// The Electron binary cannot run here (and importing it would try to download it): stand in for it.
vi.mock('electron', () => ({
  BrowserWindow: class {
    private readonly record: (typeof created)[number];
    constructor(options: BrowserWindowConstructorOptions) {
      this.record = { options, calls: [] };
      created.push(this.record);
    }
    once(event: string, listener: () => void) {
      if (event === 'ready-to-show') this.record.readyToShow = listener;
      return this;
    }
    maximize() {
      this.record.calls.push('maximize');
    }
    show() {
      this.record.calls.push('show');
    }
  },
}));

const { createMainWindow } = await import('./window');

describe('createMainWindow', () => {
  /** Switched on: the page's own world, the OS sandbox, the same-origin policy. */
  const guardsOn = ['contextIsolation', 'sandbox', 'webSecurity'] as const;
  /** Switched off: every way in for Node, for a webview, for insecure content or for unfinished Chromium features. */
  const waysInOff = [
    'nodeIntegration',
    'nodeIntegrationInWorker',
    'nodeIntegrationInSubFrames',
    'allowRunningInsecureContent',
    'webviewTag',
    'experimentalFeatures',
  ] as const;

  it('isolates and sandboxes the page, with no Node, no webview and no insecure content', () => {
    createMainWindow('/app/out/preload/index.cjs', { bounds: { width: 1000, height: 700 }, maximized: false });
    const { webPreferences } = created.at(-1)!.options;
    expect(webPreferences?.preload).toBe('/app/out/preload/index.cjs');
    for (const guard of guardsOn) expect(webPreferences?.[guard], guard).toBe(true);
    for (const way of waysInOff) expect(webPreferences?.[way], way).toBe(false);
    expect(webPreferences?.disableBlinkFeatures).toBe('Auxclick');
    expect(webPreferences).not.toHaveProperty('enableBlinkFeatures');
    expect(webPreferences).not.toHaveProperty('additionalArguments');
  });

  it('opens where the restored placement says, hidden until painted, then maximized if it was', () => {
    createMainWindow('/p.cjs', { bounds: { x: 40, y: 50, width: 1100, height: 760 }, maximized: true });
    const window = created.at(-1)!;
    expect(window.options).toMatchObject({ x: 40, y: 50, width: 1100, height: 760, show: false, minWidth: 760 });
    expect(window.calls).toEqual([]);
    window.readyToShow?.();
    expect(window.calls).toEqual(['maximize', 'show']);
  });

  it('leaves x/y out when the placement has none, so Electron centres the window', () => {
    createMainWindow('/p.cjs', { bounds: { width: 1280, height: 820 }, maximized: false });
    const window = created.at(-1)!;
    expect(window.options).not.toHaveProperty('x');
    window.readyToShow?.();
    expect(window.calls).toEqual(['show']);
  });
});
