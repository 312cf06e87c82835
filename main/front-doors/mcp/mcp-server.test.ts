import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useMcpTestSessions } from '../../test-support/mcp-session-kit';
import { useTempDirs } from '../../test-support/temp-dir';
import { fileTools } from '../../tools';

const tempDir = useTempDirs();
const startSession = useMcpTestSessions();

async function connect() {
  const workspace = await tempDir();
  return { ...(await startSession({ home: await tempDir(), workspace })), workspace };
}

describe('MCP mode exposes the same registry', () => {
  it('lists every workspace tool (the code tools wait for code files), with the same policy and sandbox', async () => {
    const { client, workspace } = await connect();
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    const withoutServer = fileTools.filter((tool) => tool.needsLanguageServer !== true).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(withoutServer));
    // run asks by default, and an MCP session cannot ask.
    const run = await client.callTool({ name: 'run_command', arguments: { command: 'ls' } });
    expect(run).toMatchObject({ isError: true, structuredContent: { code: 'approval_required' } });
    const status = await client.callTool({ name: 'git_status', arguments: {} });
    expect(status).toMatchObject({ isError: true, structuredContent: { code: 'not_a_git_repo' } });
    await writeFile(join(workspace, 'notes.md'), 'Кошки любят рыбу.\n');
    const search = await client.callTool({ name: 'file_semantic_search', arguments: { query: 'кошка' } });
    expect(search).toMatchObject({ structuredContent: { results: [expect.objectContaining({ file: 'notes.md' })] } });
    // Nobody can save a download in MCP mode: the tool says so instead of waiting.
    const download = await client.callTool({ name: 'file_download', arguments: { path: 'notes.md' } });
    expect(download).toMatchObject({ structuredContent: { offered: false, saved: false } });
  });
});
