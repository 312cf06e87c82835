import { afterEach, describe, expect, it } from 'vitest';
import { userServerSchema } from '../../../shared/settings';
import type { UserServer } from '../../../shared/settings';
import type { CallContext } from '../../platform/ipc/dispatcher';
import type { WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import { createLanguageServerHandlers } from './language-server-handlers';
import { LspService } from './lsp-service';
import { catalogWith } from './server-catalog';
import { useFakeLanguageServer } from '../../test-support/fake-language-server';

/**
 * A server added in settings (code.servers), against a tiny stand-in server speaking real JSON-RPC
 * over stdio (vscode-jsonrpc): chosen by its patterns, started with the clean environment, shown
 * in the settings panel with its stderr, restarted by the panel's button.
 */
const fakeServer = useFakeLanguageServer(
  'fake-lua',
  `
let opened = null;
process.stderr.write('fake-lua: started ' + process.pid + '\\n');
c.onRequest('initialize', () => ({ capabilities: { hoverProvider: true } }));
c.onNotification('textDocument/didOpen', (params) => { opened = params.textDocument; });
c.onRequest('textDocument/hover', () => ({ contents: 'hover from fake-lua about ' + (opened && opened.languageId) }));
c.onRequest('test/env', () => process.env);
`,
);
afterEach(() => {
  delete process.env['FAMILIAR_TEST_SECRET'];
});

const sandbox = () => ({ workspaceRoot: fakeServer.dir() }) as WorkspaceSandbox;
const ctx: CallContext = { transport: 'direct', clientId: 'test' };

const luaServer = (patterns: string[]): UserServer =>
  userServerSchema.parse({
    id: 'fake-lua',
    command: process.execPath,
    args: [fakeServer.script()],
    patterns,
    languageId: 'lua',
  });

function service(userServers: UserServer[]): LspService {
  return fakeServer.keep(
    new LspService({
      servers: () => catalogWith(userServers),
      timings: { requestMs: 2000, coldRequestMs: 5000, backoffMs: 20, maxBackoffMs: 100 },
    }),
  );
}

describe('servers added in settings', () => {
  it('is chosen for the files its patterns match, before the built-in servers', () => {
    const lsp = service([luaServer(['scripts/**/*.lua', '.luau', '*.ts'])]);
    expect(lsp.definitionFor('scripts/game/init.lua')?.id).toBe('fake-lua');
    // A glob with a slash is matched from the workspace root.
    expect(lsp.definitionFor('vendor/init.lua')).toBeUndefined();
    expect(lsp.definitionFor('deep/down/x.LUAU')?.id).toBe('fake-lua');
    // Listed first, the user's server replaces the built-in one for its files.
    expect(lsp.definitionFor('src/a.ts')?.id).toBe('fake-lua');
    expect(service([]).definitionFor('src/a.ts')?.id).toBe('typescript');
  });

  it('answers through real JSON-RPC, with its language id, in the clean environment', async () => {
    process.env['FAMILIAR_TEST_SECRET'] = 'sk-not-for-servers';
    const lsp = service([luaServer(['*.lua'])]);
    const client = await lsp.clientFor(sandbox(), 'scripts/init.lua');
    expect(client.ok).toBe(true);
    if (!client.ok) return;
    expect(client.value.serverId).toBe('fake-lua');
    const synced = await client.value.sync('scripts/init.lua', 'print(1)\n');
    expect(synced.ok).toBe(true);
    const hover = await client.value.request<{ contents: string }>('textDocument/hover', {
      textDocument: { uri: client.value.uriOf('scripts/init.lua') },
      position: { line: 0, character: 0 },
    });
    expect(hover).toEqual({ ok: true, value: { contents: 'hover from fake-lua about lua' } });
    const env = await client.value.request<Record<string, string>>('test/env', {});
    expect(env.ok && env.value).toBeTruthy();
    if (env.ok) expect(env.value?.['FAMILIAR_TEST_SECRET']).toBeUndefined();
  });

  it('a command that is not there answers language_server_unavailable naming the setting', async () => {
    const missing = userServerSchema.parse({
      id: 'nope',
      command: 'familiar-no-such-language-server',
      patterns: ['.nope'],
      languageId: 'nope',
    });
    const lsp = service([missing]);
    const client = await lsp.clientFor(sandbox(), 'a.nope');
    expect(client).toMatchObject({ ok: false, error: { code: 'language_server_unavailable', message: /Settings/ } });
    expect(lsp.panel().find((row) => row.id === 'nope')).toMatchObject({ state: 'not_installed', userAdded: true });
  });
});

describe('the language-server panel (languageServers.list / restart)', () => {
  it('lists every server with its state and stderr, restarts one, and keeps the log of a crash', async () => {
    const lsp = service([luaServer(['*.lua'])]);
    const handlers = createLanguageServerHandlers(lsp, () => Promise.resolve(sandbox()));
    const list = async () => {
      const answer = await handlers['languageServers.list']({}, ctx);
      if (!answer.ok) throw new Error(answer.error.message);
      return answer.value.servers;
    };
    expect((await list()).find((row) => row.id === 'fake-lua')).toMatchObject({ state: 'stopped', userAdded: true });
    expect((await list()).find((row) => row.id === 'typescript')).toMatchObject({ userAdded: false });

    const restarted = await handlers['languageServers.restart']({ id: 'fake-lua' }, ctx);
    expect(restarted.ok).toBe(true);
    const first = (await list()).find((row) => row.id === 'fake-lua')!;
    expect(first).toMatchObject({ state: 'running', restarts: 0 });
    // stderr arrives on its own pipe: wait for the line rather than for time.
    await expect
      .poll(async () => (await list()).find((row) => row.id === 'fake-lua')?.log)
      .toEqual([`fake-lua: started ${first.pid}`]);

    await handlers['languageServers.restart']({ id: 'fake-lua' }, ctx);
    const second = (await list()).find((row) => row.id === 'fake-lua')!;
    expect(second).toMatchObject({ state: 'running', restarts: 1 });
    expect(second.pid).not.toBe(first.pid);

    await expect
      .poll(async () => (await list()).find((row) => row.id === 'fake-lua')?.log)
      .toEqual([`fake-lua: started ${second.pid}`]);
    lsp.client('fake-lua')!.killForTest();
    await expect.poll(async () => (await list()).find((row) => row.id === 'fake-lua')?.state).toBe('crashed');
    expect((await list()).find((row) => row.id === 'fake-lua')?.log).toEqual([`fake-lua: started ${second.pid}`]);

    expect(await handlers['languageServers.restart']({ id: 'no-such' }, ctx)).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});
