import type { Menu, MenuItemConstructorOptions } from 'electron';
import type { AppCommand } from '../../../shared/ipc/app';
import type { NativeKey, NativeText } from '../../../shared/i18n/native-strings';

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
  /** The chosen language's strings; the menu is rebuilt when the language changes. */
  readonly t: NativeText;
}

/**
 * The native menu. Its Edit and View items use Electron roles, which is what makes copy, paste,
 * select-all and zoom work (and their shortcuts, on macOS in particular) inside the page.
 */
export function applicationMenuTemplate({
  platform,
  appName,
  isDevelopment,
  actions,
  t,
}: MenuOptions): MenuItemConstructorOptions[] {
  const isMac = platform === 'darwin';
  const checkForUpdates: MenuItemConstructorOptions = {
    id: 'check-for-updates',
    label: t('menu.checkForUpdates'),
    click: () => actions.checkForUpdates(),
  };
  const separator: MenuItemConstructorOptions = { type: 'separator' };
  // Electron's role labels are English whatever the language: each role gets its label from `t`.
  const roleLabels: Partial<Record<NonNullable<MenuItemConstructorOptions['role']>, string>> = {
    about: t('menu.about', { app: appName }),
    services: t('menu.services'),
    hide: t('menu.hide', { app: appName }),
    hideOthers: t('menu.hideOthers'),
    unhide: t('menu.unhide'),
    quit: t('menu.quit', { app: appName }),
    close: t('menu.close'),
    undo: t('menu.undo'),
    redo: t('menu.redo'),
    cut: t('menu.cut'),
    copy: t('menu.copy'),
    paste: t('menu.paste'),
    pasteAndMatchStyle: t('menu.pasteAndMatchStyle'),
    delete: t('menu.delete'),
    selectAll: t('menu.selectAll'),
    reload: t('menu.reload'),
    forceReload: t('menu.forceReload'),
    toggleDevTools: t('menu.toggleDevTools'),
    resetZoom: t('menu.resetZoom'),
    zoomIn: t('menu.zoomIn'),
    zoomOut: t('menu.zoomOut'),
    togglefullscreen: t('menu.toggleFullScreen'),
    minimize: t('menu.minimize'),
    zoom: t('menu.zoom'),
    front: t('menu.front'),
  };
  const role = (name: NonNullable<MenuItemConstructorOptions['role']>): MenuItemConstructorOptions => ({
    role: name,
    ...(roleLabels[name] === undefined ? {} : { label: roleLabels[name] }),
  });
  // The page listens for these keys itself (browser mode has no menu): the menu shows the shortcut
  // without registering it, so one key press never acts twice.
  const pageCommand = (command: AppCommand, label: NativeKey, accelerator: string): MenuItemConstructorOptions => ({
    id: command,
    label: t(label),
    accelerator,
    registerAccelerator: false,
    click: () => actions.command(command),
  });
  const settings = pageCommand('settings', isMac ? 'menu.settingsMac' : 'menu.settings', 'CmdOrCtrl+,');

  const appMenu: MenuItemConstructorOptions = {
    label: appName,
    submenu: [
      role('about'),
      checkForUpdates,
      separator,
      settings,
      separator,
      role('services'),
      separator,
      role('hide'),
      role('hideOthers'),
      role('unhide'),
      separator,
      role('quit'),
    ],
  };
  const fileMenu: MenuItemConstructorOptions = {
    label: t('menu.file'),
    submenu: [
      pageCommand('new-conversation', 'menu.newConversation', 'CmdOrCtrl+N'),
      pageCommand('open-folder', 'menu.openFolder', 'CmdOrCtrl+O'),
      separator,
      ...(isMac ? [role('close')] : [settings, separator, role('quit')]),
    ],
  };
  const editMenu: MenuItemConstructorOptions = {
    label: t('menu.edit'),
    submenu: [
      role('undo'),
      role('redo'),
      separator,
      role('cut'),
      role('copy'),
      role('paste'),
      role('pasteAndMatchStyle'),
      role('delete'),
      role('selectAll'),
    ],
  };
  const viewMenu: MenuItemConstructorOptions = {
    label: t('menu.view'),
    submenu: [
      ...(isDevelopment ? ([role('reload'), role('forceReload'), role('toggleDevTools'), separator] as const) : []),
      pageCommand('toggle-files', 'menu.toggleFiles', 'CmdOrCtrl+B'),
      pageCommand('toggle-conversations', 'menu.toggleConversations', 'CmdOrCtrl+Shift+B'),
      separator,
      role('resetZoom'),
      role('zoomIn'),
      role('zoomOut'),
      separator,
      role('togglefullscreen'),
    ],
  };
  const windowMenu: MenuItemConstructorOptions = {
    label: t('menu.window'),
    submenu: isMac ? [role('minimize'), role('zoom'), separator, role('front')] : [role('minimize'), role('close')],
  };
  const showLogFile: MenuItemConstructorOptions = {
    id: 'show-log-file',
    label: t('menu.showLogFile'),
    click: () => actions.showLogFile(),
  };
  // On macOS updates and About live in the app menu, where Mac users look for them.
  const helpMenu: MenuItemConstructorOptions = {
    role: 'help',
    label: t('menu.help'),
    submenu: isMac ? [showLogFile] : [showLogFile, separator, checkForUpdates, separator, role('about')],
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
