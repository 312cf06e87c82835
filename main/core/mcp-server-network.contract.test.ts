import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { reply, startScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import type { ScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import type { ApprovalRequest } from '../../shared/ipc/approvals';
import type { McpServerStatus } from '../../shared/mcp-servers';
import { useClosers } from '../test-support/closers';
import { useContractCores } from '../test-support/contract-core';
import type { ContractCore } from '../test-support/contract-core';
import { sendInNewConversation } from '../test-support/contract-turns';
import { handWrittenServer } from '../test-support/hand-written-mcp-server';
import { firstServerReady } from '../test-support/mcp-contract-kit';
import { startLoopbackServer } from '../test-support/loopback-server';
import type { LoopbackServer } from '../test-support/loopback-server';
import { networkedConfinement } from '../test-support/networked-confinement';
import { useTempDirs } from '../test-support/temp-dir';

/**
 * A confined MCP server reaching for a host it was not granted (issue 29), as the page meets it:
 * one question in the approval queue naming the server and the host, the connection held until the
 * answer; "always" keeps the host in the server's grants, a refusal holds for the server's process.
 * The server and the web server listen on 127.0.0.1 only.
 */
const { networked, skipped } = networkedConfinement();
const tempDir = useTempDirs();
const startCore = useContractCores();
const close = useClosers();

async function setUp(): Promise<{ run: ContractCore; llm: ScriptedLlmServer; web: LoopbackServer; url: string }> {
  const llm = await startScriptedLlmServer();
  const web = await startLoopbackServer();
  close(
    () => llm.close(),
    () => web.close(),
  );
  const run = await startCore({ home: await tempDir(), llmUrl: llm.url });
  // In the workspace: a confined server sees its own, empty /tmp.
  const file = join(run.core.workspace.current(), 'net-server.mjs');
  await writeFile(file, handWrittenServer);
  await run.call('mcpServers.import', {
    text: JSON.stringify({ mcpServers: { net: { command: process.execPath, args: [file, 'faulty'] } } }),
  });
  await firstServerReady(run);
  return { run, llm, web, url: `http://127.0.0.1:${web.port}/x` };
}

/** The model fetches `url` with the server's tool; its call is approved; the text it got back. */
async function fetchThrough(run: ContractCore, llm: ScriptedLlmServer, url: string, answer?: object) {
  llm.enqueue(reply.toolCall('net__fetch', { url }), reply.text('Done.'));
  run.requested.length = 0;
  await sendInNewConversation(run, 'Fetch it.');
  const call = await vi.waitFor(() => run.requested.find((request) => request.mcp?.tool === 'fetch') ?? fail());
  await run.call('approvals.answer', { id: call.id, decision: 'approve' });
  let question: ApprovalRequest | undefined;
  if (answer !== undefined) {
    question = await vi.waitFor(() => run.requested.find((request) => request.network !== undefined) ?? fail(), {
      timeout: 15_000,
    });
    await run.call('approvals.answer', { id: question.id, ...answer });
  }
  const result = await vi.waitFor(() => run.chatEvents.find((event) => event.type === 'tool-result') ?? fail(), {
    timeout: 15_000,
  });
  await run.turnEnd();
  const text = (JSON.stringify(result).match(/"text":"((?:[^"\\]|\\.)*)"/) ?? [])[1] ?? '';
  return { call, question, text, asked: run.requested.filter((request) => request.network !== undefined) };
}

const fail = (): never => {
  throw new Error('not yet');
};

const status = async (run: ContractCore) =>
  (await run.call<{ servers: McpServerStatus[] }>('mcpServers.list', {})).servers[0];

describe.runIf(networked)(`an MCP server’s network question through the contract${skipped}`, () => {
  it('asks once naming server and host; "always" lets it through and keeps the host in its grants', async () => {
    const { run, llm, web, url } = await setUp();
    const first = await fetchThrough(run, llm, url, { decision: 'approve', allowForWorkspace: true });
    expect(first.asked).toHaveLength(1);
    expect(first.question).toMatchObject({
      conversationId: first.call.conversationId,
      toolCallId: first.call.toolCallId,
      network: { kind: 'mcp-server', server: 'net', host: '127.0.0.1', port: web.port },
    });
    expect(first.question?.summary).toBe(`The MCP server "net" wants to reach 127.0.0.1:${web.port}`);
    expect(first.text).toBe('200 hello from /x');
    expect(web.requests).toEqual(['GET /x']);
    const [saved] = run.core.settings.get().mcp.servers;
    expect(saved?.transport === 'stdio' && saved.grants.hosts).toEqual([`127.0.0.1:${web.port}`]);
    // Granted now: the same server, not restarted, reaches it again without a question.
    expect(await status(run)).toMatchObject({ state: 'ready', refusedHosts: [] });
    const second = await fetchThrough(run, llm, url);
    expect(second.asked).toEqual([]);
    expect(second.text).toBe('200 hello from /x');
    expect(web.requests).toEqual(['GET /x', 'GET /x']);
  });

  it('a refusal refuses the request, keeps the refused-host note and is not asked again', async () => {
    const { run, llm, web, url } = await setUp();
    const first = await fetchThrough(run, llm, url, { decision: 'reject', reason: 'not that one' });
    expect(first.asked).toHaveLength(1);
    // Refused at the proxy: a 403, or (a client that tunnels plain http too) a failed CONNECT.
    expect(first.text).toMatch(/^(403 |failed)/);
    expect(web.requests).toEqual([]);
    const [saved] = run.core.settings.get().mcp.servers;
    expect(saved?.transport === 'stdio' && saved.grants.hosts).toEqual([]);
    expect((await status(run))?.refusedHosts).toEqual([`127.0.0.1:${web.port}`]);
    const second = await fetchThrough(run, llm, url);
    expect(second.asked).toEqual([]);
    expect(second.text).toMatch(/^(403 |failed)/);
    expect(web.requests).toEqual([]);
  });

  it('Stop withdraws the open question with its call; the next call asks again', async () => {
    const { run, llm, web, url } = await setUp();
    llm.enqueue(reply.toolCall('net__fetch', { url }));
    const conversationId = await sendInNewConversation(run, 'Fetch it.');
    const call = await vi.waitFor(() => run.requested.find((request) => request.mcp?.tool === 'fetch') ?? fail());
    await run.call('approvals.answer', { id: call.id, decision: 'approve' });
    await vi.waitFor(() => run.requested.find((request) => request.network !== undefined) ?? fail(), {
      timeout: 15_000,
    });
    await run.call('chat.stop', { conversationId });
    await run.turnEnd();
    await vi.waitFor(async () =>
      expect((await run.call<{ pending: ApprovalRequest[] }>('approvals.list', {})).pending).toEqual([]),
    );
    const next = await fetchThrough(run, llm, url, { decision: 'approve' });
    expect(next.asked).toHaveLength(1);
    expect(next.text).toBe('200 hello from /x');
    expect(web.requests).toEqual(['GET /x']);
  });
});
