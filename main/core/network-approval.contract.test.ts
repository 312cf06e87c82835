import { describe, expect, it, vi } from 'vitest';
import { reply, startScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import type { ScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import { readAuditDay } from '../platform/audit/audit-log';
import { networkedConfinement } from '../test-support/networked-confinement';
import { useClosers } from '../test-support/closers';
import { useContractCores } from '../test-support/contract-core';
import type { ContractCore } from '../test-support/contract-core';
import { startLoopbackServer } from '../test-support/loopback-server';
import type { LoopbackServer } from '../test-support/loopback-server';
import { useTempDirs } from '../test-support/temp-dir';

/**
 * A command's network question through the contract, as the page sees it: the same approval queue
 * as the command itself, "always in this workspace" kept in settings, the answer on the audit trail
 * under the host, and the command's tool card keeping the command's own answer. Everything listens
 * on 127.0.0.1.
 */
const { networked, skipped } = networkedConfinement();

const tempDir = useTempDirs();
const startCore = useContractCores();
const closeAfter = useClosers();

async function start(): Promise<{ run: ContractCore; llm: ScriptedLlmServer; web: LoopbackServer; id: string }> {
  const llm = await startScriptedLlmServer();
  const web = await startLoopbackServer();
  closeAfter(
    () => llm.close(),
    () => web.close(),
  );
  const run = await startCore({ home: await tempDir(), llmUrl: llm.url });
  llm.enqueue(
    reply.toolCall('run_command', {
      command: `curl -sS -w ' [%{http_code}]' http://127.0.0.1:${web.port}/x`,
      shell: true,
    }),
    reply.text('Done.'),
  );
  const { id } = await run.call<{ id: string }>('conversations.create', {});
  await run.call('chat.send', { conversationId: id, text: 'Fetch it.' });
  // First the command itself, as always.
  const command = await run.pending();
  expect(command.network).toBeUndefined();
  await run.call('approvals.answer', { id: command.id, decision: 'approve' });
  return { run, llm, web, id };
}

const networkQuestion = (run: ContractCore) =>
  vi.waitFor(
    () => run.requested.find((request) => request.network !== undefined) ?? Promise.reject(new Error('not yet')),
  );

const today = () => new Date().toISOString().slice(0, 10);

describe.runIf(networked)(`a command’s network question through the contract${skipped}`, () => {
  it('asks in the same queue; "always in this workspace" lands in settings and on the audit trail', async () => {
    const { run, web } = await start();
    const question = await networkQuestion(run);
    expect(question).toMatchObject({ tool: 'run_command', network: { host: '127.0.0.1', port: web.port } });
    await run.call('approvals.answer', { id: question.id, decision: 'approve', allowForWorkspace: true });
    await run.turnEnd();
    expect(run.chatEvents.find((event) => event.type === 'tool-result')).toMatchObject({
      result: { ok: true, value: { stdout: 'hello from /x [200]' } },
    });
    expect(run.core.settings.get().commands.allowedHosts).toEqual([
      { host: '127.0.0.1', port: web.port, workspace: run.core.workspace.current(), local: false },
    ]);
    const audit = await readAuditDay(run.paths.audit, today());
    expect(audit.filter((line) => line.host !== undefined).map((line) => [line.host, line.approval])).toEqual([
      [`127.0.0.1:${web.port}`, 'requested'],
      [`127.0.0.1:${web.port}`, 'approved'],
    ]);
  });

  it('a rejected host leaves the command’s tool card approved, and the server untouched', async () => {
    const { run, web, id } = await start();
    const question = await networkQuestion(run);
    await run.call('approvals.answer', { id: question.id, decision: 'reject', reason: 'not that one' });
    await run.turnEnd();
    expect(web.requests).toEqual([]);
    const opened = await run.call<{ messages: { parts?: { type: string }[] }[] }>('conversations.open', { id });
    const tool = opened.messages.flatMap((message) => message.parts ?? []).find((part) => part.type === 'tool');
    expect(tool).toMatchObject({ approval: { decision: 'approved' } });
    expect(run.core.settings.get().commands.allowedHosts).toEqual([]);
  });
});
