/** English strings: the source of keys; ru and zh must translate every one (the type checks it). */
export const en = {
  'app.title': 'Familiar',
  'app.connecting': 'Connecting to Familiar…',
  'app.disconnected': 'Connection to Familiar lost. Reconnecting…',
  'app.loadFailed': 'Familiar could not load: {message}',
  'header.memory': 'Memory',
  'header.memoryPending': 'The memory switch arrives with the memory registry.',
  'header.settings': 'Settings',
  'workspace.title': 'Workspace',
  'workspace.path': 'Folder',
  'chat.title': 'Chat',
  'chat.empty': 'Start a conversation: ask Familiar to read, search or edit files in your workspace.',
  'settings.title': 'Settings',
  'settings.close': 'Close',
  'settings.about': 'About',
  'settings.version': 'Version',
  'settings.mode': 'Mode',
  'settings.modeDesktop': 'Desktop app',
  'settings.modeBrowser': 'Browser mode',
  'settings.platform': 'Platform',
  'settings.home': 'Data folder',
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
