import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { McpServerStatus } from '../../shared/mcp-servers';
import { familiarPaths } from '../platform/storage/paths';
import { startOAuthMcpServer } from '../test-support/oauth-mcp-server';
import type { OAuthMcpServer } from '../test-support/oauth-mcp-server';
import { useTempDirs } from '../test-support/temp-dir';
import { useTestCores } from '../test-support/test-core';
import type { Core } from './create-core';

/**
 * A Streamable HTTP server behind OAuth 2.1 + PKCE (a scripted authorization server on 127.0.0.1):
 * it waits as 'needs sign-in', Sign in registers a client and gives the authorization URL, the
 * "browser" (fetch following the redirects by hand) comes back to Familiar's loopback callback,
 * the server starts with its tokens, kept in the secret store; an expired token is refreshed.
 */
const tempDir = useTempDirs();
const startCore = useTestCores();
const ctx = { transport: 'direct' as const, clientId: 'test' };
const servers: OAuthMcpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const state = (core: Core, want: McpServerStatus['state']) =>
  vi.waitFor(
    () => {
      const status = core.mcpHost.manager.statuses()[0];
      if (status?.state !== want) throw new Error(`not ${want}: ${JSON.stringify(status)}`);
      return status;
    },
    { timeout: 15_000, interval: 25 },
  );

async function dispatch<T>(core: Core, name: string, input: unknown): Promise<T> {
  const answer = await core.dispatch(name, input, ctx);
  if (!answer.ok) throw new Error(`${name}: ${answer.error.message}`);
  return answer.value as T;
}

/** The browser: the authorization server consents at once and redirects to Familiar's loopback callback. */
async function browse(authorizationUrl: string): Promise<void> {
  const consent = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const landed = await fetch(consent.headers.get('location') ?? '');
  expect(await landed.text()).toContain('Signed in');
}

const callWhoami = (core: Core) =>
  core.mcpHost.manager.call('remote', 'whoami', { n: 1 }, { signal: new AbortController().signal, timeoutMs: 10_000 });

describe('signing in to an MCP server with OAuth', () => {
  it('needs sign-in, signs in through the browser and the loopback callback, then refreshes', async () => {
    const remote = await startOAuthMcpServer();
    servers.push(remote);
    const home = await tempDir();
    const core = await startCore({ home });
    await dispatch(core, 'settings.update', {
      mcp: { servers: [{ id: 'remote', transport: 'http', url: remote.url }] },
    });
    await state(core, 'needs-sign-in');
    expect(remote.grants).toEqual([]);

    const { authorizationUrl } = await dispatch<{ authorizationUrl: string }>(core, 'mcpServers.signIn', {
      id: 'remote',
    });
    const authorize = new URL(authorizationUrl);
    expect(authorize.origin).toBe(new URL(remote.url).origin);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    // The browser: the authorization server consents at once and redirects to the loopback callback.
    const consent = await fetch(authorize, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    const callback = new URL(consent.headers.get('location') ?? '');
    expect(callback.hostname).toBe('127.0.0.1');
    const landed = await fetch(callback);
    expect(await landed.text()).toContain('Signed in');
    expect(landed.status).toBe(200);

    await state(core, 'ready');
    expect(remote.grants).toEqual(['authorization_code']);
    const answer = await core.mcpHost.manager.call(
      'remote',
      'whoami',
      { n: 1 },
      {
        signal: new AbortController().signal,
        timeoutMs: 10_000,
      },
    );
    expect(answer.ok && answer.value.content).toEqual([{ type: 'text', text: 'signed in' }]);
    const bearer = remote.bearers.at(-1)!.replace('Bearer ', '');
    expect(bearer).not.toBe('');
    expect(await readFile(familiarPaths(home).settingsFile, 'utf8')).not.toContain(bearer);
    expect(core.secrets.get('mcp:remote:oauth')).toContain(bearer);

    // The access token expires: the next start refreshes it, no browser.
    remote.expireAccessTokens();
    await dispatch(core, 'mcpServers.restart', { id: 'remote' });
    await state(core, 'ready');
    expect(remote.grants).toEqual(['authorization_code', 'refresh_token']);

    // A callback nobody started is refused.
    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged');
    expect((await fetch(forged)).status).toBe(400);
  });

  it("signs in where the server's refusal points: its metadata at its own path, the scope it names", async () => {
    const remote = await startOAuthMcpServer({ metadataPath: '/resource-metadata/for-mcp', scope: 'notes:read' });
    servers.push(remote);
    const core = await startCore({ home: await tempDir() });
    await dispatch(core, 'settings.update', {
      mcp: { servers: [{ id: 'remote', transport: 'http', url: remote.url }] },
    });
    await state(core, 'needs-sign-in');
    const { authorizationUrl } = await dispatch<{ authorizationUrl: string }>(core, 'mcpServers.signIn', {
      id: 'remote',
    });
    expect(new URL(authorizationUrl).searchParams.get('scope')).toBe('notes:read');
    await browse(authorizationUrl);
    await state(core, 'ready');
    expect(remote.scopes).toEqual(['notes:read']);
  });

  it('asks the user to sign in again when a call needs more access (step-up), then the call goes through', async () => {
    const remote = await startOAuthMcpServer({ scope: 'notes:read', stepUp: { tool: 'whoami', scope: 'notes:admin' } });
    servers.push(remote);
    const core = await startCore({ home: await tempDir() });
    await dispatch(core, 'settings.update', {
      mcp: { servers: [{ id: 'remote', transport: 'http', url: remote.url }] },
    });
    await state(core, 'needs-sign-in');
    await browse(
      (await dispatch<{ authorizationUrl: string }>(core, 'mcpServers.signIn', { id: 'remote' })).authorizationUrl,
    );
    await state(core, 'ready');

    const refused = await callWhoami(core);
    expect(refused.ok ? 'ok' : refused.error.code).toBe('mcp_server_unavailable');
    await state(core, 'needs-sign-in');
    const again = await dispatch<{ authorizationUrl: string }>(core, 'mcpServers.signIn', { id: 'remote' });
    expect(new URL(again.authorizationUrl).searchParams.get('scope')).toBe('notes:admin');
    await browse(again.authorizationUrl);
    await state(core, 'ready');
    const answer = await callWhoami(core);
    expect(answer.ok && answer.value.content).toEqual([{ type: 'text', text: 'signed in' }]);
    expect(remote.scopes).toEqual(['notes:read', 'notes:admin']);
  });
});
