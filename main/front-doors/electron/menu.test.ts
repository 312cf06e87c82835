import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { nativeEn, nativeText } from '../../../shared/i18n/native-strings';
import { applicationMenuTemplate, installApplicationMenu } from './menu';
import type { MenuOptions } from './menu';

const platforms = ['darwin', 'linux', 'win32'] as const;
const checkForUpdatesLabel = nativeEn['menu.checkForUpdates'];
const showLogFileLabel = nativeEn['menu.showLogFile'];

function options(platform: NodeJS.Platform, isDevelopment = false): MenuOptions {
  return {
    platform,
    appName: 'Familiar',
    isDevelopment,
    actions: { checkForUpdates: vi.fn(), showLogFile: vi.fn(), command: vi.fn() },
    t: nativeText('en'),
  };
}

/** The menu on `platform` with some actions replaced by the test's own spies. */
function templateWith(
  platform: NodeJS.Platform,
  actions: Partial<MenuOptions['actions']>,
): MenuItemConstructorOptions[] {
  const base = options(platform);
  return applicationMenuTemplate({ ...base, actions: { ...base.actions, ...actions } });
}

function submenuOf(template: MenuItemConstructorOptions[], label: string): MenuItemConstructorOptions[] {
  const menu = template.find((item) => item.label === label);
  expect(menu, `${label} menu`).toBeDefined();
  return Array.isArray(menu?.submenu) ? menu.submenu : [];
}

function allItems(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? allItems(item.submenu) : [])]);
}

const rolesIn = (items: MenuItemConstructorOptions[]) => items.map((item) => item.role).filter(Boolean);

describe.each(platforms)('the application menu on %s', (platform) => {
  it('has Edit roles, so copy, paste and select-all work in the page', () => {
    expect(rolesIn(submenuOf(applicationMenuTemplate(options(platform)), 'Edit'))).toEqual(
      expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']),
    );
  });

  it('has View zoom roles and full screen', () => {
    expect(rolesIn(submenuOf(applicationMenuTemplate(options(platform)), 'View'))).toEqual(
      expect.arrayContaining(['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']),
    );
  });

  it('offers Check for Updates… once, wired to the updater', () => {
    const checkForUpdates = vi.fn();
    const template = templateWith(platform, { checkForUpdates });
    const items = allItems(template).filter((item) => item.label === checkForUpdatesLabel);
    expect(items).toHaveLength(1);
    // Electron passes (menuItem, window, event); the handler needs none of them.
    items[0]?.click?.({} as never, undefined, {});
    expect(checkForUpdates).toHaveBeenCalledTimes(1);
  });

  it('offers Show Log File in the Help menu, wired to its action', () => {
    const showLogFile = vi.fn();
    const template = templateWith(platform, { showLogFile });
    const help = template.find((item) => item.role === 'help');
    const item = allItems(Array.isArray(help?.submenu) ? help.submenu : []).find(
      (entry) => entry.label === showLogFileLabel,
    );
    item?.click?.({} as never, undefined, {});
    expect(showLogFile).toHaveBeenCalledTimes(1);
  });

  it('has New Conversation, Open Folder… and Settings with their shortcuts, handed to the page', () => {
    const command = vi.fn();
    const template = templateWith(platform, { command });
    const items = allItems(template);
    for (const [id, accelerator] of [
      ['new-conversation', 'CmdOrCtrl+N'],
      ['open-folder', 'CmdOrCtrl+O'],
      ['settings', 'CmdOrCtrl+,'],
      ['toggle-files', 'CmdOrCtrl+B'],
      ['toggle-conversations', 'CmdOrCtrl+Shift+B'],
    ] as const) {
      const found = items.filter((item) => item.id === id);
      expect(found, id).toHaveLength(1);
      expect(found[0]).toMatchObject({ accelerator, registerAccelerator: false });
      found[0]?.click?.({} as never, undefined, {});
      expect(command).toHaveBeenLastCalledWith(id);
    }
  });

  it('keeps reload and developer tools out of a packaged app', () => {
    const packaged = rolesIn(allItems(applicationMenuTemplate(options(platform, false))));
    expect(packaged).not.toEqual(expect.arrayContaining(['toggleDevTools']));
    expect(packaged).not.toContain('reload');
    expect(packaged).not.toContain('forceReload');
    expect(rolesIn(allItems(applicationMenuTemplate(options(platform, true))))).toEqual(
      expect.arrayContaining(['reload', 'toggleDevTools']),
    );
  });

  it('can always quit', () => {
    expect(rolesIn(allItems(applicationMenuTemplate(options(platform))))).toContain('quit');
  });

  it('speaks the chosen language, role items included (Electron labels those in English)', () => {
    const template = applicationMenuTemplate({ ...options(platform), t: nativeText('ru') });
    const items = allItems(template);
    expect(template.map((item) => item.label)).toEqual(expect.arrayContaining(['Файл', 'Правка', 'Справка']));
    expect(items.find((item) => item.role === 'copy')?.label).toBe('Копировать');
    expect(items.find((item) => item.role === 'quit')?.label).toBe('Завершить Familiar');
    expect(items.find((item) => item.id === 'new-conversation')?.label).toBe('Новый разговор');
    // Every item a person reads has a label: none is left to Electron's English default.
    for (const item of items) if (item.type !== 'separator') expect(item.label, item.role ?? item.id).toBeTruthy();
  });
});

describe('installApplicationMenu', () => {
  it('builds the template and makes it the application menu', () => {
    const built = { id: 'menu' };
    const menu = {
      buildFromTemplate: vi.fn((_template: MenuItemConstructorOptions[]) => built),
      setApplicationMenu: vi.fn(),
    };
    installApplicationMenu(menu as never, options('linux'));
    const template = menu.buildFromTemplate.mock.calls[0]?.[0] ?? [];
    expect(template.map((item) => item.label ?? item.role)).toEqual(['File', 'Edit', 'View', 'Window', 'Help']);
    expect(menu.setApplicationMenu).toHaveBeenCalledWith(built);
  });
});
