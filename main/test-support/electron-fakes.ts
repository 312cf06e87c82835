import { EventEmitter } from 'node:events';

/**
 * The parts of the `electron` module that tests of the desktop shell stub the same way: one
 * 1920×1080 display, a session whose hooks accept anything, no application menu, no notifications.
 * Spread into a vi.mock('electron') factory beside the fakes a test watches itself.
 */
export const quietElectron = {
  nativeTheme: { themeSource: 'system' },
  Menu: { buildFromTemplate: () => ({}), setApplicationMenu: () => undefined },
  screen: {
    getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
    getPrimaryDisplay: () => ({ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }),
  },
  session: {
    defaultSession: {
      setPermissionRequestHandler: () => undefined,
      setPermissionCheckHandler: () => undefined,
      webRequest: { onHeadersReceived: () => undefined },
    },
  },
  Notification: Object.assign(class {}, { isSupported: () => false }),
  nativeImage: { createFromDataURL: () => ({}) },
  get Tray() {
    return QuietTray;
  },
};

/** A tray icon that accepts its tooltip and menu and is never clicked unless a test emits 'click'. */
export class QuietTray extends EventEmitter {
  setToolTip = (_text: string) => undefined;
  setContextMenu = (_menu: unknown) => undefined;
  destroy = () => undefined;
}

/**
 * Electron's app for a packaged Familiar that is the only instance and is ready at once; every
 * other call does nothing. A test extends it and overrides what it watches (getPath, quit, …).
 */
export class QuietApp extends EventEmitter {
  isPackaged = true;
  name = 'Familiar';
  requestSingleInstanceLock = () => true;
  releaseSingleInstanceLock = (): void => undefined;
  quit = (): void => undefined;
  exit = (_code: number): void => undefined;
  enableSandbox = () => undefined;
  setAppLogsPath = () => undefined;
  getPath = (name: string) => name;
  whenReady = () => Promise.resolve();
  setAboutPanelOptions = () => undefined;
  setBadgeCount = () => true;
  getPreferredSystemLanguages = () => ['en-US'];
}

/**
 * Familiar's one window: it loads whatever it is given and stays open, focused and at the default
 * size, not minimised, maximised or full screen. A test extends it with the webContents it needs.
 */
export class QuietWindow extends EventEmitter {
  loadFile = (_file: string) => Promise.resolve();
  loadURL = (_url: string) => Promise.resolve();
  isDestroyed = () => false;
  isFocused = () => true;
  flashFrame = () => undefined;
  show = () => undefined;
  hide = () => undefined;
  isVisible = () => true;
  focus = () => undefined;
  restore = () => undefined;
  isMinimized = () => false;
  isMaximized = () => false;
  isFullScreen = () => false;
  getNormalBounds = () => ({ x: 0, y: 0, width: 1280, height: 820 });
  static getFocusedWindow = () => null;
  static getAllWindows = () => [];
}
