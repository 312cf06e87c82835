import { BrowserWindow } from 'electron';
import { minimumWindowSize } from './window-state';
import type { WindowPlacement } from './window-state';

/**
 * Familiar's one window (no tray, no second window). The options are written out right in the
 * constructor call, not built elsewhere, so Electronegativity reads the real webPreferences.
 */
export function createMainWindow(preloadPath: string, placement: WindowPlacement): BrowserWindow {
  const window = new BrowserWindow({
    ...placement.bounds,
    minWidth: minimumWindowSize.width,
    minHeight: minimumWindowSize.height,
    title: 'Familiar',
    show: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      // A middle click on a link would otherwise ask for a new window through auxclick.
      disableBlinkFeatures: 'Auxclick',
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: true,
    },
  });
  window.once('ready-to-show', () => {
    if (placement.maximized) window.maximize();
    window.show();
  });
  return window;
}
