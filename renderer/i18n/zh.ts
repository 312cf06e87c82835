import type { Messages } from './en';

export const zh: Messages = {
  'app.title': 'Familiar',
  'app.connecting': '正在连接 Familiar…',
  'app.disconnected': '与 Familiar 的连接已断开，正在重新连接…',
  'app.loadFailed': 'Familiar 加载失败：{message}',
  'header.memory': '记忆',
  'header.memoryPending': '记忆开关将随记忆注册表一起提供。',
  'header.settings': '设置',
  'workspace.title': '工作区',
  'workspace.path': '文件夹',
  'chat.title': '聊天',
  'chat.empty': '开始对话：让 Familiar 读取、搜索或编辑工作区中的文件。',
  'settings.title': '设置',
  'settings.close': '关闭',
  'settings.about': '关于',
  'settings.version': '版本',
  'settings.mode': '模式',
  'settings.modeDesktop': '桌面应用',
  'settings.modeBrowser': '浏览器模式',
  'settings.platform': '平台',
  'settings.home': '数据文件夹',
};
