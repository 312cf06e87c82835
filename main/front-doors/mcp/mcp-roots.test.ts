import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it, vi } from 'vitest';
import { useMcpTestSessions } from '../../test-support/mcp-session-kit';
import { useTempDirs } from '../../test-support/temp-dir';

const tempDir = useTempDirs();
const startMcpTestSession = useMcpTestSessions();

async function folderWith(file: string, text: string) {
  const dir = await tempDir('mcp-root-');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, file), text);
  return realpath(dir);
}

const readFile = (client: Client, path: string) => client.callTool({ name: 'read_file', arguments: { path } });

describe('MCP roots drive the workspace', () => {
  it('started without --workspace, works on the first file:// folder the client offers, and follows list_changed', async () => {
    const first = await folderWith('a.md', 'from the first root\n');
    const second = await folderWith('b.md', 'from the second root\n');
    const session = await startMcpTestSession({
      home: await tempDir(),
      // A file is no folder: skipped for the next root.
      roots: [{ uri: pathToFileURL(join(second, 'b.md')).href }, { uri: pathToFileURL(first).href, name: 'first' }],
    });
    await vi.waitFor(async () =>
      expect(await readFile(session.client, 'a.md')).toMatchObject({
        structuredContent: { content: 'from the first root' },
      }),
    );
    expect(session.core.workspace.current()).toBe(first);

    session.roots.splice(0, session.roots.length, { uri: pathToFileURL(second).href });
    await session.client.sendRootsListChanged();
    await vi.waitFor(async () =>
      expect(await readFile(session.client, 'b.md')).toMatchObject({
        structuredContent: { content: 'from the second root' },
      }),
    );
    expect(session.core.workspace.current()).toBe(second);
    // The first root's file is not reachable any more: the workspace switched, not widened.
    expect(await readFile(session.client, 'a.md')).toMatchObject({
      isError: true,
      structuredContent: { code: 'file_not_found' },
    });
  });

  it('with neither --workspace nor roots, tool calls answer workspace_unavailable saying how to fix it', async () => {
    const session = await startMcpTestSession({ home: await tempDir() });
    const result = await session.client.callTool({ name: 'list_files', arguments: {} });
    expect(result).toMatchObject({ isError: true, structuredContent: { code: 'workspace_unavailable' } });
    expect(JSON.stringify(result.structuredContent)).toContain('--workspace');
  });

  it('when the roots change to none Familiar can open, tool calls answer workspace_unavailable again', async () => {
    const folder = await folderWith('x.md', 'x\n');
    const session = await startMcpTestSession({ home: await tempDir(), roots: [{ uri: pathToFileURL(folder).href }] });
    await vi.waitFor(async () =>
      expect(await readFile(session.client, 'x.md')).toMatchObject({ structuredContent: { content: 'x' } }),
    );
    // A file is no folder.
    session.roots.splice(0, session.roots.length, { uri: pathToFileURL(join(folder, 'x.md')).href });
    await session.client.sendRootsListChanged();
    await vi.waitFor(async () =>
      expect(await readFile(session.client, 'x.md')).toMatchObject({
        isError: true,
        structuredContent: { code: 'workspace_unavailable' },
      }),
    );
  });

  it('--workspace wins over the client roots', async () => {
    const given = await folderWith('given.md', 'given\n');
    const offered = await folderWith('offered.md', 'offered\n');
    const session = await startMcpTestSession({
      home: await tempDir(),
      workspace: given,
      roots: [{ uri: pathToFileURL(offered).href }],
    });
    await session.client.sendRootsListChanged();
    expect(await readFile(session.client, 'given.md')).toMatchObject({ structuredContent: { content: 'given' } });
    expect(session.core.workspace.current()).toBe(given);
  });
});
