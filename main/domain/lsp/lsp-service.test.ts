import { describe, expect, it } from 'vitest';
import type { WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import { LspService } from './lsp-service';
import type { FileProblems } from './problem-counts';
import type { ServerDefinition } from './server-catalog';
import { useFakeLanguageServer } from '../../test-support/fake-language-server';
import { isAlive } from '../../test-support/process-alive';

/**
 * The client's life cycle against a tiny stand-in server (vscode-jsonrpc over stdio, as a real
 * one): fast, so the cap, the clean environment, timeouts and restarts are each checked on their own.
 */
const fakeServer = useFakeLanguageServer(
  'lsp-fake',
  `
c.onRequest('initialize', () => ({ capabilities: {} }));
c.onRequest('test/env', () => process.env);
c.onRequest('test/echo', (params) => params);
c.onRequest('test/hang', () => new Promise(() => undefined));
const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
c.onNotification('textDocument/didOpen', (p) => {
  c.sendNotification('textDocument/publishDiagnostics', { uri: 'file:///usr/lib/outside.d.ts', diagnostics: [{ range, message: 'x' }] });
  c.sendNotification('textDocument/publishDiagnostics', {
    uri: p.textDocument.uri,
    diagnostics: [{ range, message: 'bad', severity: 1 }, { range, message: 'meh', severity: 2 }],
  });
});
`,
);

const fake = (id: string, extension: string): ServerDefinition => ({
  id,
  extensions: [extension],
  languageId: () => id,
  resolve: () => ({ file: process.execPath, args: [fakeServer.script()] }),
  installHint: '',
});

const sandbox = () => ({ workspaceRoot: fakeServer.dir() }) as WorkspaceSandbox;

function service(options: ConstructorParameters<typeof LspService>[0] = {}): LspService {
  return fakeServer.keep(
    new LspService({
      servers: [fake('fake-a', '.a'), fake('fake-b', '.b')],
      timings: { requestMs: 300, coldRequestMs: 300, backoffMs: 20, maxBackoffMs: 100 },
      ...options,
    }),
  );
}

async function running(lsp: LspService, file: string) {
  const client = await lsp.clientFor(sandbox(), file);
  if (!client.ok) throw new Error(client.error.message);
  const connected = await client.value.connect();
  if (!connected.ok) throw new Error(connected.error.message);
  return client.value;
}

describe('LspService', () => {
  it('runs at most maxServers: one more stops the least recently used', async () => {
    const lsp = service({ maxServers: 1 });
    const a = await running(lsp, 'x.a');
    const pid = a.pid!;
    await running(lsp, 'y.b');
    expect(lsp.status().map((status) => status.server)).toEqual(['fake-b']);
    await expect.poll(() => isAlive(pid), { timeout: 3000 }).toBe(false);
  });

  it('starts servers with the allow-listed environment only', async () => {
    process.env['FAMILIAR_TEST_API_KEY'] = 'secret';
    try {
      const env = await (await running(service(), 'x.a')).request<Record<string, string>>('test/env', null);
      expect(env.ok && env.value).toMatchObject({ PATH: process.env['PATH'] });
      expect(env.ok && env.value?.['FAMILIAR_TEST_API_KEY']).toBeUndefined();
    } finally {
      delete process.env['FAMILIAR_TEST_API_KEY'];
    }
  });

  it('answers timeout for a request the server never answers, and restarts a server stuck twice', async () => {
    const client = await running(service(), 'x.a');
    const pid = client.pid;
    expect(await client.request('test/hang', null)).toMatchObject({ ok: false, error: { code: 'timeout' } });
    expect(await client.request('test/hang', null)).toMatchObject({ ok: false, error: { code: 'timeout' } });
    await expect.poll(() => client.state, { timeout: 3000 }).toBe('crashed');
    expect(await client.request('test/echo', { n: 1 })).toEqual({ ok: true, value: { n: 1 } });
    expect(client.pid).not.toBe(pid);
  });

  it('restarts a crashed server on next use, after a backoff', async () => {
    const client = await running(service(), 'x.a');
    const pid = client.pid!;
    client.killForTest();
    await expect.poll(() => client.state, { timeout: 3000 }).toBe('crashed');
    expect(await client.request('test/echo', 'again')).toEqual({ ok: true, value: 'again' });
    expect(client.restarts).toBe(1);
    expect(client.pid).not.toBe(pid);
  });

  it('reports the problem counts of each file a server publishes for, and zero once it is closed', async () => {
    const seen: FileProblems[] = [];
    const client = await running(service({ onProblems: (problems) => seen.push(problems) }), 'x.a');
    expect(seen).toEqual([]);
    await client.sync('x.a', 'text');
    // The file outside the workspace was published first (same stream): it is never reported.
    await expect.poll(() => seen.length, { timeout: 3000 }).toBe(1);
    expect(seen).toEqual([{ root: fakeServer.dir(), path: 'x.a', errors: 1, warnings: 1 }]);
    client.close('x.a');
    expect(seen.at(-1)).toEqual({ root: fakeServer.dir(), path: 'x.a', errors: 0, warnings: 0 });
  });

  it('stops every server on dispose', async () => {
    const lsp = service();
    const pids = [(await running(lsp, 'x.a')).pid!, (await running(lsp, 'y.b')).pid!];
    await lsp.dispose();
    await expect.poll(() => pids.filter(isAlive), { timeout: 3000 }).toEqual([]);
  });
});
