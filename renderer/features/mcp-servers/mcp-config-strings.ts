/**
 * UI strings of MCP server secrets, OAuth sign-in and a workspace's offered `.mcp.json`, spread into
 * the locale tables in renderer/i18n/ beside mcp-strings.ts.
 */
export const mcpConfigEn = {
  'mcp.state.needs-sign-in': 'needs sign-in',
  'mcp.env': 'Environment variables, one KEY=value per line',
  'mcp.headers': 'HTTP headers, one per line as Header: value',
  'mcp.secretValues': 'Values (kept in the secret store, not in settings.json)',
  'mcp.secretMasked': '•••••••• (saved)',
  'mcp.replaceValue': 'New value for {name}',
  'mcp.replaceShort': 'Replace',
  'mcp.signIn': 'Sign in to {id}',
  'mcp.signInShort': 'Sign in',
  'mcp.signInConfirm': 'Open {host} in your browser to sign in to {id}?',
  'mcp.signInOpen': 'Open the browser',
  'mcp.cancel': 'Cancel',
  'mcp.signInWaiting': 'Finish signing in in your browser; {id} starts once you are back.',
  'mcp.offered': 'Offered by this workspace ({file})',
  'mcp.offeredExplain':
    'This folder’s {file} lists these servers. Nothing from it runs unless you allow it for this workspace; if the file changes you are asked again.',
  'mcp.offeredChanged': '{file} changed since you answered: look again.',
  'mcp.offerAllow': 'Allow for this workspace',
  'mcp.offerIgnore': 'Ignore',
  'mcp.offerAllowed': 'Allowed for this workspace.',
  'mcp.offerIgnored': 'Ignored for this workspace.',
  'mcp.offerNotice': 'This workspace offers MCP servers ({names}). They do not run unless you allow them.',
};

export const mcpConfigRu: Record<keyof typeof mcpConfigEn, string> = {
  'mcp.state.needs-sign-in': 'нужен вход',
  'mcp.env': 'Переменные окружения, по одной КЛЮЧ=значение в строке',
  'mcp.headers': 'HTTP-заголовки, по одному в строке: Заголовок: значение',
  'mcp.secretValues': 'Значения (хранятся в хранилище секретов, не в settings.json)',
  'mcp.secretMasked': '•••••••• (сохранено)',
  'mcp.replaceValue': 'Новое значение для {name}',
  'mcp.replaceShort': 'Заменить',
  'mcp.signIn': 'Войти в {id}',
  'mcp.signInShort': 'Войти',
  'mcp.signInConfirm': 'Открыть {host} в браузере, чтобы войти в {id}?',
  'mcp.signInOpen': 'Открыть браузер',
  'mcp.cancel': 'Отмена',
  'mcp.signInWaiting': 'Завершите вход в браузере; {id} запустится, когда вы вернётесь.',
  'mcp.offered': 'Предложено этой рабочей папкой ({file})',
  'mcp.offeredExplain':
    '{file} этой папки перечисляет эти серверы. Ничего из него не запускается, пока вы не разрешите это для этой рабочей папки; если файл изменится, вас спросят снова.',
  'mcp.offeredChanged': '{file} изменился после вашего ответа: посмотрите ещё раз.',
  'mcp.offerAllow': 'Разрешить для этой рабочей папки',
  'mcp.offerIgnore': 'Игнорировать',
  'mcp.offerAllowed': 'Разрешено для этой рабочей папки.',
  'mcp.offerIgnored': 'Игнорируется для этой рабочей папки.',
  'mcp.offerNotice': 'Эта рабочая папка предлагает MCP-серверы ({names}). Они не запустятся без вашего разрешения.',
};

export const mcpConfigZh: Record<keyof typeof mcpConfigEn, string> = {
  'mcp.state.needs-sign-in': '需要登录',
  'mcp.env': '环境变量，每行一个 KEY=值',
  'mcp.headers': 'HTTP 请求头，每行一个 Header: 值',
  'mcp.secretValues': '值（保存在密钥存储中，而不是 settings.json）',
  'mcp.secretMasked': '••••••••（已保存）',
  'mcp.replaceValue': '{name} 的新值',
  'mcp.replaceShort': '替换',
  'mcp.signIn': '登录 {id}',
  'mcp.signInShort': '登录',
  'mcp.signInConfirm': '在浏览器中打开 {host} 以登录 {id}？',
  'mcp.signInOpen': '打开浏览器',
  'mcp.cancel': '取消',
  'mcp.signInWaiting': '请在浏览器中完成登录；返回后 {id} 将启动。',
  'mcp.offered': '此工作区提供（{file}）',
  'mcp.offeredExplain':
    '此文件夹的 {file} 列出了这些服务器。除非你为此工作区允许，否则其中任何内容都不会运行；文件更改后会再次询问。',
  'mcp.offeredChanged': '{file} 在你答复后已更改：请重新查看。',
  'mcp.offerAllow': '为此工作区允许',
  'mcp.offerIgnore': '忽略',
  'mcp.offerAllowed': '已为此工作区允许。',
  'mcp.offerIgnored': '已为此工作区忽略。',
  'mcp.offerNotice': '此工作区提供 MCP 服务器（{names}）。除非你允许，它们不会运行。',
};
