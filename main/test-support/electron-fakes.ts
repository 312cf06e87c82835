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
};
