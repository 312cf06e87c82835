import { fileURLToPath, pathToFileURL } from 'node:url';
import { app, ipcMain, session, shell } from 'electron';
import { createCore } from '../core/create-core';
import { createStderrLogger } from '../core/logger';
import { familiarVersion } from '../version';
import { forwardEvents, registerContractHandlers } from './ipc-main';
import { createSafeStorageCipher } from './safe-storage-cipher';
import { createSenderCheck, guardWebContents, hardenSession } from './security';
import type { TrustedPage } from './security';
import { createMainWindow } from './window';

/** The desktop shell: one window over the same core browser mode serves. */
export async function startDesktop(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.enableSandbox();
  const logger = createStderrLogger('desktop');
  const rendererIndex = fileURLToPath(new URL('../renderer/index.html', import.meta.url));
  const devServer = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];
  const page: TrustedPage = { url: devServer ?? pathToFileURL(rendererIndex).href };

  // Guard every webContents ever created, not only the ones we know about.
  app.on('web-contents-created', (_event, contents) =>
    guardWebContents(contents, page, (url) => void shell.openExternal(url)),
  );

  await app.whenReady();
  hardenSession(session.defaultSession);
  const core = await createCore({
    home: app.getPath('userData'),
    mode: 'desktop',
    version: familiarVersion,
    logger,
    secretCipher: createSafeStorageCipher(),
  });
  registerContractHandlers(ipcMain, core.dispatch, createSenderCheck(page));

  const window = createMainWindow(fileURLToPath(new URL('../preload/index.cjs', import.meta.url)));
  const stopForwarding = forwardEvents(core.events, window.webContents);
  window.on('closed', stopForwarding);
  await (devServer === undefined ? window.loadFile(rendererIndex) : window.loadURL(devServer));

  app.on('second-instance', () => {
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('window-all-closed', () => {
    void core.dispose('The Familiar window closed.').finally(() => app.quit());
  });
}
