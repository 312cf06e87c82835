import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { MCP_SECRET_KEPT, mcpServerConfigSchema } from '../../shared/mcp-servers';
import type { Settings } from '../../shared/settings';
import { familiarPaths } from '../platform/storage/paths';
import { everythingServer } from '../test-support/mcp-host-kit';
import { useTempDirs } from '../test-support/temp-dir';
import { useTestCores } from '../test-support/test-core';
import type { Core } from './create-core';

/**
 * An MCP server's environment values are secrets (tokens, API keys): settings.json keeps their
 * names only, the secret store their values, and the server still receives them.
 */
const tempDir = useTempDirs();
const startCore = useTestCores();
const call = { signal: new AbortController().signal, timeoutMs: 15_000 };
const everything = (env: Record<string, string>) =>
  mcpServerConfigSchema.parse({
    id: 'everything',
    transport: 'stdio',
    command: process.execPath,
    args: [everythingServer, 'stdio'],
    env,
  });

async function tokenSeen(core: Core): Promise<unknown> {
  await vi.waitFor(
    () => {
      const status = core.mcpHost.manager.statuses()[0];
      if (status?.state !== 'ready') throw new Error(`not ready: ${JSON.stringify(status)}`);
    },
    { timeout: 20_000, interval: 50 },
  );
  const answer = await core.mcpHost.manager.call('everything', 'get-env', {}, call);
  if (!answer.ok) throw new Error(answer.error.message);
  const [first] = answer.value.content;
  return (JSON.parse(first?.type === 'text' ? first.text : '{}') as Record<string, unknown>)['TOKEN'];
}

describe('MCP server secrets', () => {
  it('an added server’s env value is kept out of settings.json, and the server receives it', async () => {
    const home = await tempDir();
    const core = await startCore({ home });
    const saved = await core.dispatch(
      'settings.update',
      { mcp: { servers: [everything({ TOKEN: 'abc-secret-value' })] } },
      { transport: 'direct', clientId: 'test' },
    );
    expect(saved.ok && (saved.value as Settings).mcp.servers[0]).toMatchObject({ env: { TOKEN: MCP_SECRET_KEPT } });
    const onDisk = await readFile(familiarPaths(home).settingsFile, 'utf8');
    expect(onDisk).not.toContain('abc-secret-value');
    expect(onDisk).toContain('TOKEN');
    expect(await tokenSeen(core)).toBe('abc-secret-value');

    // Sent back masked: kept. Replaced: the server restarts with the new value.
    await core.settings.update({ mcp: { servers: [everything({ TOKEN: MCP_SECRET_KEPT })] } });
    expect(await tokenSeen(core)).toBe('abc-secret-value');
    await core.settings.update({ mcp: { servers: [everything({ TOKEN: 'def-secret-value' })] } });
    await vi.waitFor(async () => expect(await tokenSeen(core)).toBe('def-secret-value'), { timeout: 20_000 });
    expect(await readFile(familiarPaths(home).settingsFile, 'utf8')).not.toContain('def-secret-value');
    // Removed: its value leaves the secret store too.
    await core.settings.update({ mcp: { servers: [] } });
    expect(core.secrets.values()).not.toContain('def-secret-value');
  });

  it('plain values already in settings.json move to the secret store when Familiar starts', async () => {
    const home = await tempDir();
    const paths = familiarPaths(home);
    await mkdir(paths.home, { recursive: true });
    await writeFile(
      paths.settingsFile,
      JSON.stringify({ mcp: { servers: [everything({ TOKEN: 'old-plain-value' })] } }),
    );
    const core = await startCore({ home });
    expect(await readFile(paths.settingsFile, 'utf8')).not.toContain('old-plain-value');
    expect(await tokenSeen(core)).toBe('old-plain-value');
  });
});
