import type { Messages } from './en';

export const ru: Messages = {
  'app.title': 'Familiar',
  'app.connecting': 'Подключение к Familiar…',
  'app.disconnected': 'Связь с Familiar потеряна. Переподключение…',
  'app.loadFailed': 'Не удалось загрузить Familiar: {message}',
  'header.memory': 'Память',
  'header.memoryPending': 'Переключатель памяти появится вместе с реестром памяти.',
  'header.settings': 'Настройки',
  'workspace.title': 'Рабочая папка',
  'workspace.path': 'Папка',
  'chat.title': 'Чат',
  'chat.empty': 'Начните разговор: попросите Familiar прочитать, найти или изменить файлы в рабочей папке.',
  'settings.title': 'Настройки',
  'settings.close': 'Закрыть',
  'settings.about': 'О программе',
  'settings.version': 'Версия',
  'settings.mode': 'Режим',
  'settings.modeDesktop': 'Настольное приложение',
  'settings.modeBrowser': 'Режим браузера',
  'settings.platform': 'Платформа',
  'settings.home': 'Папка данных',
};
