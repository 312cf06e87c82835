import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, screen, session, shell } from 'electron';
import { createCore } from '../core/create-core';
import { createStderrLogger } from '../core/logger';
import { familiarVersion } from '../version';
import { appFiles } from './app-files';
import { installContentSecurityPolicy } from './content-security-policy';
import { createDesktopUpdates } from './desktop-updates';
import { forwardEvents, registerContractHandlers } from './ipc-main';
import { installApplicationMenu } from './menu';
import { createSafeStorageCipher } from './safe-storage-cipher';
import { createSenderCheck, guardWebContents, hardenSession } from './security';
import { createMainWindow } from './window';
import {
  loadWindowState,
  rememberWindowState,
  restoreWindowPlacement,
  saveWindowState,
  windowStateFile,
} from './window-state';

/** The desktop shell: one window (no tray) over the same core browser mode serves. */
export async function startDesktop(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.enableSandbox();
  const logger = createStderrLogger('desktop');
  const devServer = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];
  const { rendererIndex, preload, page } = appFiles(devServer);

  // Guard every webContents ever created, not only the ones we know about. The guard has already
  // checked the URL (https only, no credentials) before it reaches the system browser.
  app.on('web-contents-created', (_event, contents) =>
    guardWebContents(contents, page, (url) => void shell.openExternal(url)),
  );

  await app.whenReady();
  hardenSession(session.defaultSession);
  installContentSecurityPolicy(session.defaultSession.webRequest);
  const home = app.getPath('userData');
  const core = await createCore({
    home,
    mode: 'desktop',
    version: familiarVersion,
    logger,
    secretCipher: createSafeStorageCipher(),
    // file_download in the desktop app: the native Save dialog, starting in Downloads.
    chooseSavePath: async (suggestedName) => {
      const options = { defaultPath: join(app.getPath('downloads'), suggestedName) };
      const focused = BrowserWindow.getFocusedWindow();
      const answer =
        focused === null ? await dialog.showSaveDialog(options) : await dialog.showSaveDialog(focused, options);
      return answer.canceled || answer.filePath === undefined || answer.filePath === '' ? null : answer.filePath;
    },
  });
  registerContractHandlers(ipcMain, core.dispatch, createSenderCheck(page));

  const stateFile = windowStateFile(home);
  const placement = restoreWindowPlacement(
    loadWindowState(stateFile),
    screen.getAllDisplays().map((display) => display.workArea),
    screen.getPrimaryDisplay().workArea,
  );
  const window = createMainWindow(preload, placement);
  rememberWindowState(window, (state) => {
    try {
      saveWindowState(stateFile, state);
    } catch (error) {
      logger.warn(`Could not remember the window's size and position: ${String(error)}`);
    }
  });
  const stopForwarding = forwardEvents(core.events, window.webContents);
  window.on('closed', stopForwarding);

  const updates = createDesktopUpdates(window, familiarVersion, logger);
  const checkForUpdates = (trigger: 'startup' | 'menu') =>
    void updates.check(trigger).catch((error: unknown) => logger.error('Update check failed', error));
  installApplicationMenu(Menu, {
    platform: process.platform,
    appName: app.name,
    isDevelopment: !app.isPackaged,
    actions: { checkForUpdates: () => checkForUpdates('menu') },
  });
  app.setAboutPanelOptions({ applicationName: 'Familiar', applicationVersion: familiarVersion });

  await (devServer === undefined ? window.loadFile(rendererIndex) : window.loadURL(devServer));

  app.on('second-instance', () => {
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('window-all-closed', () => {
    void core.dispose('The Familiar window closed.').finally(() => app.quit());
  });
  checkForUpdates('startup');
}
