import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../core/create-core';
import { useTempDirs } from '../../test-support/temp-dir';
import { createMcpServer } from './mcp-server';
import { createTestCore } from '../../test-support/test-core';

const tempDir = useTempDirs();
const cores: Core[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(cores.splice(0).map((core) => core.dispose('test over')));
});

async function connect() {
  const workspace = await tempDir();
  const core = await createTestCore({
    home: await tempDir(),
    workspace,
    approvalMode: 'refuse',
  });
  cores.push(core);
  const server = createMcpServer({ executor: core.assistant.toolCalls, version: '0.0.0-test', conversationId: 'mcp' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return { client, workspace };
}

describe('MCP mode exposes the same registry', () => {
  it('lists the command, git, transfer and semantic-search tools, with the same policy and sandbox', async () => {
    const { client, workspace } = await connect();
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'run_command',
        'git_status',
        'git_diff',
        'git_commit',
        'file_upload',
        'file_download',
        'file_semantic_search',
      ]),
    );
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
