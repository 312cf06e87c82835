import type { Menu, MenuItemConstructorOptions } from 'electron';
import type { AppCommand } from '../../../shared/ipc/app';

export interface MenuActions {
  checkForUpdates(): void;
  /** Hands a command to the page, which owns the action (and its keyboard shortcut). */
  command(command: AppCommand): void;
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
  // The page listens for these keys itself (browser mode has no menu): the menu shows the shortcut
  // without registering it, so one key press never acts twice.
  const pageCommand = (command: AppCommand, label: string, accelerator: string): MenuItemConstructorOptions => ({
    id: command,
    label,
    accelerator,
    registerAccelerator: false,
    click: () => actions.command(command),
  });
  const settings = pageCommand('settings', isMac ? 'Settings…' : 'Settings', 'CmdOrCtrl+,');

  const appMenu: MenuItemConstructorOptions = {
    label: appName,
    submenu: [
      { role: 'about' },
      checkForUpdates,
      separator,
      settings,
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
    submenu: [
      pageCommand('new-conversation', 'New Conversation', 'CmdOrCtrl+N'),
      pageCommand('open-folder', 'Open Folder…', 'CmdOrCtrl+O'),
      separator,
      ...(isMac ? [{ role: 'close' } as const] : [settings, separator, { role: 'quit' } as const]),
    ],
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
      pageCommand('toggle-files', 'Show or Hide Files', 'CmdOrCtrl+B'),
      pageCommand('toggle-conversations', 'Show or Hide Conversations', 'CmdOrCtrl+Shift+B'),
      separator,
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
