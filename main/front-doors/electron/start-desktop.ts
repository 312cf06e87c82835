import { join } from 'node:path';
import type { BrowserWindow as Window } from 'electron';
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  nativeTheme,
  net,
  Notification,
  screen,
  session,
  shell,
  Tray,
} from 'electron';
import { createCore } from '../../core/create-core';
import { createStderrLogger } from '../../platform/logging/logger';
import { adoptLoginShellPath } from '../../platform/processes/child-environment';
import { readLoginShellPath } from '../../platform/processes/login-shell-path';
import { familiarVersion } from '../../core/version';
import { appFiles } from './app-files';
import { installContentSecurityPolicy } from './content-security-policy';
import { watchApprovalAttention } from './approval-attention';
import { installContextMenu } from './context-menu';
import { createDesktopUpdates } from './desktop-updates';
import { chooseFolderWith } from './folder-dialog';
import { forwardEvents, registerContractHandlers } from './ipc-main';
import { failStartup, focusOnSecondInstance, installQuitGuard, quitQuestion } from './lifecycle';
import { createFileLogger } from './log-file';
import type { FileLogger } from './log-file';
import { installApplicationMenu } from './menu';
import { createNativeLanguage, followLanguageSetting } from './native-language';
import { followThemeSetting } from './native-theme';
import type { NativeLanguage } from './native-language';
import { createSafeStorageCipher } from './safe-storage-cipher';
import { createSenderCheck, guardWebContents, hardenSession, isSafeExternalUrl } from './security';
import { createMainWindow } from './window';
import { hideOnClose, installTray, trayIconDataUrl, watchScheduleNotifications } from './tray';
import type { InstalledTray } from './tray';
import {
  loadWindowState,
  rememberWindowState,
  restoreWindowPlacement,
  saveWindowState,
  windowStateFile,
} from './window-state';

/**
 * The desktop shell: one window over the same core browser mode serves, and a tray icon that keeps
 * Familiar (the heartbeat, scheduled tasks) running while the window is closed.
 */
export async function startDesktop(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  let window: Window | null = null;
  focusOnSecondInstance(app, () => window);

  const stderr = createStderrLogger('desktop');
  // The system's language until the settings are read (a startup failure may come before that).
  const language = createNativeLanguage(() => app.getPreferredSystemLanguages());
  let logger: FileLogger | undefined;
  try {
    app.setAppLogsPath();
    logger = createFileLogger(app.getPath('logs'), 'desktop', stderr);
    logger.info(`Familiar ${familiarVersion} starting (Electron ${process.versions.electron ?? '?'})`);
    await launch(logger, language, (created) => (window = created));
  } catch (error) {
    failStartup(
      {
        app,
        showErrorBox: (title, content) => dialog.showErrorBox(title, content),
        logger: logger ?? stderr,
        logFile: logger?.file,
        t: language.t,
      },
      error,
    );
  }
}

async function launch(
  logger: FileLogger,
  language: NativeLanguage,
  windowCreated: (window: Window) => void,
): Promise<void> {
  app.enableSandbox();
  const devServer = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];
  const { rendererIndex, preload, page } = appFiles(devServer);

  // Guard every webContents ever created, not only the ones we know about. The guard has already
  // checked the URL (https only, no credentials) before it reaches the system browser.
  app.on('web-contents-created', (_event, contents) =>
    guardWebContents(contents, page, (url) => void shell.openExternal(url)),
  );

  // Started before whenReady so the shell's profile runs while Electron starts up.
  const loginPath = adoptLoginPath(logger);
  await app.whenReady();
  await loginPath;
  hardenSession(session.defaultSession);
  installContentSecurityPolicy(session.defaultSession.webRequest);
  const home = app.getPath('userData');
  const core = await createCore({
    home,
    // Not hidden in the app data folder: a folder the user finds in their file manager.
    visibleDefaultWorkspace: join(app.getPath('home'), 'Familiar'),
    mode: 'desktop',
    // Its first call does not pay the start's garbage collection (HeapRelease.afterStart).
    collectAfterStart: true,
    // Chromium's network stack: the system proxy (PAC too) and the OS certificate store, which Node's
    // fetch ignores (a corporate proxy or TLS-inspecting gateway would otherwise break every reply).
    fetch: (input, init) => net.fetch(input instanceof URL ? input.href : input, init),
    version: familiarVersion,
    logger,
    // The packaged app's extraResources (its own ripgrep); a development run uses rg on PATH.
    resourcesDir: app.isPackaged ? process.resourcesPath : undefined,
    secretCipher: createSafeStorageCipher(),
    // file_download in the desktop app: the native Save dialog, starting in Downloads.
    chooseSavePath: async (suggestedName) => {
      const options = { defaultPath: join(app.getPath('downloads'), suggestedName) };
      const focused = BrowserWindow.getFocusedWindow();
      const answer =
        focused === null ? await dialog.showSaveDialog(options) : await dialog.showSaveDialog(focused, options);
      return answer.canceled || answer.filePath === undefined || answer.filePath === '' ? null : answer.filePath;
    },
    // Open Folder… in the desktop app: the native picker, starting in the user's documents.
    chooseFolder: () =>
      chooseFolderWith(dialog, BrowserWindow.getFocusedWindow(), app.getPath('documents'), language.t),
  });
  language.apply(core.settings.get().ui.language);
  followThemeSetting(core.events, nativeTheme, core.settings.get().ui.theme);
  // From here on every way out disposes the core first (turns stopped, their process groups killed).
  const quitGuard = installQuitGuard({
    app,
    logger,
    blocker: () => {
      if (core.chat.anyRunning()) return 'reply';
      return core.assistant.broker.pending().length > 0 ? 'approval' : null;
    },
    confirm: async (blocker) => {
      const focused = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
      const question = quitQuestion(blocker, language.t);
      const answer =
        focused === undefined ? await dialog.showMessageBox(question) : await dialog.showMessageBox(focused, question);
      return answer.response === 0;
    },
    dispose: () => core.dispose('Familiar is quitting.'),
  });
  registerContractHandlers(ipcMain, core.dispatch, createSenderCheck(page));

  const stateFile = windowStateFile(home);
  const placement = restoreWindowPlacement(
    loadWindowState(stateFile),
    screen.getAllDisplays().map((display) => display.workArea),
    screen.getPrimaryDisplay().workArea,
  );
  const window = createMainWindow(preload, placement);
  windowCreated(window);
  const showWindow = () => {
    if (window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };
  const tray = trayFor(showWindow, language, logger);
  // With a tray, closing the window hides it and the runs go on; a quit asks (quitGuard) and stops them.
  if (tray === undefined) quitGuard.guardWindow(window);
  else hideOnClose(app, window);
  quitGuard.endSession(window);
  app.on('activate', showWindow);
  rememberWindowState(window, (state) => {
    try {
      saveWindowState(stateFile, state);
    } catch (error) {
      logger.warn(`Could not remember the window's size and position: ${String(error)}`);
    }
  });
  installContextMenu(
    window.webContents,
    Menu,
    {
      replaceMisspelling: (word) => window.webContents.replaceMisspelling(word),
      addToDictionary: (word) => {
        session.defaultSession.addWordToSpellCheckerDictionary(word);
      },
      openExternal: (url) => {
        if (isSafeExternalUrl(url)) void shell.openExternal(url);
      },
      copyText: (text) => void clipboard.writeText(text),
    },
    language.t,
  );
  const stopForwarding = forwardEvents(core.events, window.webContents);
  window.on('closed', stopForwarding);
  let unseen = 0;
  const stopScheduleAttention = watchScheduleNotifications(core.events, {
    isWindowFocused: () => !window.isDestroyed() && window.isVisible() && window.isFocused(),
    notify: (title, body, onClick) => {
      if (!Notification.isSupported()) return;
      const shown = new Notification({ title, body });
      shown.on('click', onClick);
      shown.show();
    },
    unseenChanged: (count) => {
      unseen = count;
      app.setBadgeCount(core.assistant.broker.pending().length + unseen);
    },
    showWindow,
  });
  window.on('closed', stopScheduleAttention);
  watchAttention(window, core.events, () => core.assistant.broker.pending().length + unseen, language);

  const updates = createDesktopUpdates(window, familiarVersion, logger, () => quitGuard.allowQuit(), language.t);
  const checkForUpdates = (trigger: 'startup' | 'menu') =>
    void updates.check(trigger).catch((error: unknown) => logger.error('Update check failed', error));
  const installMenu = () =>
    installApplicationMenu(Menu, {
      platform: process.platform,
      appName: app.name,
      isDevelopment: !app.isPackaged,
      t: language.t,
      actions: {
        checkForUpdates: () => checkForUpdates('menu'),
        showLogFile: () => shell.showItemInFolder(logger.file),
        command: (command) => core.events.emit('app.command', { command }),
      },
    });
  installMenu();
  // Electron never re-reads a menu: a new language needs a new one.
  followLanguageSetting(core.events, language, () => {
    installMenu();
    tray?.refresh();
  });
  app.setAboutPanelOptions({ applicationName: 'Familiar', applicationVersion: familiarVersion });
  // Without a tray closing the window quits (through before-quit, so the core is disposed first).
  app.on('window-all-closed', () => {
    if (tray === undefined) app.quit();
  });

  await (devServer === undefined ? window.loadFile(rendererIndex) : window.loadURL(devServer));
  checkForUpdates('startup');
}

/** The tray icon, or undefined where the desktop has no tray (closing the window then quits). */
function trayFor(showWindow: () => void, language: NativeLanguage, logger: FileLogger): InstalledTray | undefined {
  try {
    return installTray({
      Tray,
      Menu,
      image: nativeImage.createFromDataURL(trayIconDataUrl),
      t: (key, params) => language.t(key, params),
      showWindow,
      quit: () => app.quit(),
    });
  } catch (error) {
    logger.warn(`No tray icon (closing the window quits): ${String(error)}`);
    return undefined;
  }
}

/**
 * Launched from the Dock or a desktop menu, Familiar has the GUI session's bare PATH: commands and
 * git get the login shell's instead (read once; on failure they keep the PATH there is).
 */
async function adoptLoginPath(logger: FileLogger): Promise<void> {
  if (process.platform === 'win32') return;
  const shell = process.env['SHELL'] ?? (process.platform === 'darwin' ? '/bin/zsh' : '/bin/sh');
  const path = await readLoginShellPath({ shell });
  if (path.ok) adoptLoginShellPath(path.value);
  else logger.warn(`Commands keep the PATH Familiar was started with: ${path.error.message}`);
}

/** Notification, badge and taskbar flash while an approval waits and the window is in the background. */
function watchAttention(
  window: Window,
  events: Parameters<typeof watchApprovalAttention>[0],
  pending: () => number,
  language: NativeLanguage,
) {
  // Held so the notification (and its click handler) is not garbage-collected while on screen.
  let shown: Notification | undefined;
  const attention = watchApprovalAttention(
    events,
    pending,
    {
      isWindowFocused: () => !window.isDestroyed() && window.isFocused(),
      notify: (title, body, onClick) => {
        if (!Notification.isSupported()) return;
        shown = new Notification({ title, body });
        shown.on('click', onClick);
        shown.show();
      },
      setBadge: (count) => void app.setBadgeCount(count),
      flash: (on) => {
        if (!window.isDestroyed()) window.flashFrame(on);
      },
      focusWindow: () => {
        if (window.isDestroyed()) return;
        if (window.isMinimized()) window.restore();
        window.show();
        window.focus();
      },
    },
    language.t,
  );
  window.on('focus', attention.windowFocused);
  window.on('closed', () => {
    attention.stop();
    shown = undefined;
  });
}
