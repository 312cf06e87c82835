/**
 * UI strings of MCP resources (`@`) and prompts (`/`) in the composer and on sent messages, spread
 * into the locale tables in renderer/i18n/ like image-strings.ts.
 */
export const mcpPicksEn = {
  'mcpPick.menuResources': 'Resources of your MCP servers',
  'mcpPick.menuPrompts': 'Prompts of your MCP servers',
  'mcpPick.loading': 'Reading the servers’ lists…',
  'mcpPick.none': 'Nothing matches “{query}”.',
  'mcpPick.template': 'template, asks for {names}',
  'mcpPick.unanswered': 'Did not answer: {servers}',
  'mcpPick.attached': 'Attached from MCP servers',
  'mcpPick.remove': 'Remove {label}',
  'mcpPick.fromServer': 'from {server}',
  'mcpPick.argsTitle': 'Arguments of {label}',
  'mcpPick.required': '(required)',
  'mcpPick.attach': 'Attach',
  'mcpPick.cancel': 'Cancel',
  'mcpPick.onMessage': 'Attached from MCP servers (their content, not your words)',
} as const;

export const mcpPicksRu: Record<keyof typeof mcpPicksEn, string> = {
  'mcpPick.menuResources': 'Ресурсы ваших MCP-серверов',
  'mcpPick.menuPrompts': 'Промпты ваших MCP-серверов',
  'mcpPick.loading': 'Читаю списки серверов…',
  'mcpPick.none': 'Ничего не подходит под «{query}».',
  'mcpPick.template': 'шаблон, спросит: {names}',
  'mcpPick.unanswered': 'Не ответили: {servers}',
  'mcpPick.attached': 'Прикреплено с MCP-серверов',
  'mcpPick.remove': 'Убрать {label}',
  'mcpPick.fromServer': 'с сервера {server}',
  'mcpPick.argsTitle': 'Аргументы {label}',
  'mcpPick.required': '(обязательно)',
  'mcpPick.attach': 'Прикрепить',
  'mcpPick.cancel': 'Отмена',
  'mcpPick.onMessage': 'Прикреплено с MCP-серверов (их содержимое, не ваши слова)',
};

export const mcpPicksZh: Record<keyof typeof mcpPicksEn, string> = {
  'mcpPick.menuResources': '你的 MCP 服务器的资源',
  'mcpPick.menuPrompts': '你的 MCP 服务器的提示词',
  'mcpPick.loading': '正在读取服务器列表…',
  'mcpPick.none': '没有与“{query}”匹配的项。',
  'mcpPick.template': '模板，需要填写 {names}',
  'mcpPick.unanswered': '未响应：{servers}',
  'mcpPick.attached': '来自 MCP 服务器的附件',
  'mcpPick.remove': '移除 {label}',
  'mcpPick.fromServer': '来自 {server}',
  'mcpPick.argsTitle': '{label} 的参数',
  'mcpPick.required': '（必填）',
  'mcpPick.attach': '附加',
  'mcpPick.cancel': '取消',
  'mcpPick.onMessage': '来自 MCP 服务器的附件（服务器的内容，不是你的话）',
};
