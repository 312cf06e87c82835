import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { McpWorkspaceOffer } from '../../shared/mcp-servers';
import { everythingServer } from '../test-support/mcp-host-kit';
import { useTempDirs } from '../test-support/temp-dir';
import { useTestCores } from '../test-support/test-core';
import type { Core } from './create-core';

/**
 * A workspace's own `.mcp.json` is offered, never started by opening the folder (a cloned
 * repository must not run anything): only the user's yes for this workspace and this content of
 * the file starts its servers; a changed file is asked about again.
 */
const tempDir = useTempDirs();
const startCore = useTestCores();
const ctx = { transport: 'direct' as const, clientId: 'test' };

/** Writes a marker into its own data folder the moment it runs, then serves as server-everything. */
const markerServer = `
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
writeFileSync(join(process.env.FAMILIAR_MCP_DATA, 'started'), 'ran');
const target = process.argv[2];
process.argv.splice(2, 1);
await import(pathToFileURL(target).href);
`;

const projectFile = (script: string, extra: string[] = []) =>
  JSON.stringify({
    mcpServers: { repo: { command: process.execPath, args: [script, everythingServer, 'stdio', ...extra] } },
  });

async function dispatch<T>(core: Core, name: string, input: unknown): Promise<T> {
  const answer = await core.dispatch(name, input, ctx);
  if (!answer.ok) throw new Error(`${name}: ${answer.error.message}`);
  return answer.value as T;
}

/** A new workspace whose .mcp.json offers the marker server as "repo"; the path of the script. */
async function workspaceOffering(): Promise<{ workspace: string; script: string }> {
  const workspace = await tempDir();
  const script = join(workspace, 'marker-server.mjs');
  await writeFile(script, markerServer);
  await writeFile(join(workspace, '.mcp.json'), projectFile(script));
  return { workspace, script };
}

const serverReady = (core: Core) =>
  vi.waitFor(
    () => {
      if (core.mcpHost.manager.statuses()[0]?.state !== 'ready') throw new Error('not ready');
    },
    { timeout: 20_000, interval: 50 },
  );

describe('a workspace’s .mcp.json', () => {
  it('is offered and starts nothing until allowed for this workspace; a changed file asks again', async () => {
    const home = await tempDir();
    const { workspace, script } = await workspaceOffering();
    const marker = join(home, 'mcp-servers', 'repo', 'started');
    const core = await startCore({ home, workspace });

    const listed = await dispatch<{ servers: unknown[]; offered: McpWorkspaceOffer }>(core, 'mcpServers.list', {});
    expect(listed.offered).toMatchObject({ file: '.mcp.json', decision: 'pending', changed: false });
    expect(listed.offered.servers.map((server) => server.id)).toEqual(['repo']);
    expect(listed.servers).toEqual([]);
    // Time enough for a started server to have written its marker.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await expect(access(marker)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(core.mcpHost.manager.statuses()).toEqual([]);

    await dispatch(core, 'mcpServers.decideOffer', { hash: listed.offered.hash, decision: 'allowed' });
    await serverReady(core);
    expect(await readFile(marker, 'utf8')).toBe('ran');
    expect(core.mcpHost.tools().map((tool) => tool.name)).toContain('repo__echo');

    // The file changes (a pushed commit): its servers stop and it is asked about again.
    await writeFile(join(workspace, '.mcp.json'), projectFile(script, ['--changed']));
    const again = await dispatch<{ offered: McpWorkspaceOffer }>(core, 'mcpServers.list', {});
    expect(again.offered).toMatchObject({ decision: 'pending', changed: true });
    expect(again.offered.hash).not.toBe(listed.offered.hash);
    expect(core.mcpHost.manager.statuses()).toEqual([]);
    // An answer about the old content is refused.
    expect(
      (await core.dispatch('mcpServers.decideOffer', { hash: listed.offered.hash, decision: 'allowed' }, ctx)).ok,
    ).toBe(false);

    await dispatch(core, 'mcpServers.decideOffer', { hash: again.offered.hash, decision: 'ignored' });
    const ignored = await dispatch<{ offered: McpWorkspaceOffer }>(core, 'mcpServers.list', {});
    expect(ignored.offered).toMatchObject({ decision: 'ignored', changed: false });
    expect(core.mcpHost.manager.statuses()).toEqual([]);
  });

  it('an answer is remembered for its workspace across a restart', async () => {
    const home = await tempDir();
    const { workspace, script } = await workspaceOffering();
    const first = await startCore({ home, workspace });
    const { offered } = await dispatch<{ offered: McpWorkspaceOffer }>(first, 'mcpServers.list', {});
    await dispatch(first, 'mcpServers.decideOffer', { hash: offered.hash, decision: 'allowed' });
    await first.dispose('restart');
    const second = await startCore({ home, workspace });
    await serverReady(second);
    // Another workspace with the same file is asked on its own.
    const other = await tempDir();
    await writeFile(join(other, 'marker-server.mjs'), markerServer);
    await writeFile(join(other, '.mcp.json'), projectFile(script));
    const third = await startCore({ home: await tempDir(), workspace: other });
    const elsewhere = await dispatch<{ offered: McpWorkspaceOffer }>(third, 'mcpServers.list', {});
    expect(elsewhere.offered.decision).toBe('pending');
  });
});
