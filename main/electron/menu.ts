import type { Menu, MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  checkForUpdates(): void;
  /** Shows the log file in the file manager, for a bug report. */
  showLogFile(): void;
}

export interface MenuOptions {
  readonly platform: NodeJS.Platform;
  readonly appName: string;
  /** Reload and developer tools only while developing: a packaged app keeps the page as built. */
  readonly isDevelopment: boolean;
  readonly actions: MenuActions;
}

export const checkForUpdatesLabel = 'Check for Updates…';
export const showLogFileLabel = 'Show Log File';

/**
 * The native menu. Its Edit and View items use Electron roles, which is what makes copy, paste,
 * select-all and zoom work (and their shortcuts, on macOS in particular) inside the page.
 */
export function applicationMenuTemplate({
  platform,
  appName,
  isDevelopment,
  actions,
}: MenuOptions): MenuItemConstructorOptions[] {
  const isMac = platform === 'darwin';
  const checkForUpdates: MenuItemConstructorOptions = {
    id: 'check-for-updates',
    label: checkForUpdatesLabel,
    click: () => actions.checkForUpdates(),
  };
  const separator: MenuItemConstructorOptions = { type: 'separator' };

  const appMenu: MenuItemConstructorOptions = {
    label: appName,
    submenu: [
      { role: 'about' },
      checkForUpdates,
      separator,
      { role: 'services' },
      separator,
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      separator,
      { role: 'quit' },
    ],
  };
  const fileMenu: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [isMac ? { role: 'close' } : { role: 'quit' }],
  };
  const editMenu: MenuItemConstructorOptions = {
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      separator,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'pasteAndMatchStyle' },
      { role: 'delete' },
      { role: 'selectAll' },
    ],
  };
  const viewMenu: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      ...(isDevelopment
        ? ([{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, separator] as const)
        : []),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
    ],
  };
  const windowMenu: MenuItemConstructorOptions = {
    label: 'Window',
    submenu: isMac
      ? [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }]
      : [{ role: 'minimize' }, { role: 'close' }],
  };
  const showLogFile: MenuItemConstructorOptions = {
    id: 'show-log-file',
    label: showLogFileLabel,
    click: () => actions.showLogFile(),
  };
  // On macOS updates and About live in the app menu, where Mac users look for them.
  const helpMenu: MenuItemConstructorOptions = {
    role: 'help',
    submenu: isMac ? [showLogFile] : [showLogFile, separator, checkForUpdates, separator, { role: 'about' }],
  };
  return isMac
    ? [appMenu, fileMenu, editMenu, viewMenu, windowMenu, helpMenu]
    : [fileMenu, editMenu, viewMenu, windowMenu, helpMenu];
}

export function installApplicationMenu(
  menu: Pick<typeof Menu, 'buildFromTemplate' | 'setApplicationMenu'>,
  options: MenuOptions,
): void {
  menu.setApplicationMenu(menu.buildFromTemplate(applicationMenuTemplate(options)));
}
