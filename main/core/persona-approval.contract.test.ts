import { readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { reply, startScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import type { ScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import { auditFileFor, readAuditDay } from '../platform/audit/audit-log';
import { useContractCores } from '../test-support/contract-core';
import { useTempDirs } from '../test-support/temp-dir';

/**
 * The persona edit, end to end through the contract with no Electron: the real core, the real
 * registry and file tools, the real OpenAI-compatible client against a scripted model.
 */
const tempDir = useTempDirs();
const startCore = useContractCores();
let server: ScriptedLlmServer;
afterEach(() => server.close());

async function start(kind: 'openai-compatible' | 'anthropic' = 'openai-compatible') {
  server = await startScriptedLlmServer();
  const run = await startCore({ home: await tempDir(), llmUrl: server.url, kind });
  const soulPath = join(run.paths.defaultWorkspace, 'SOUL.md');
  const toolResult = () => run.chatEvents.find((event) => event.type === 'tool-result');
  return { ...run, soulPath, toolResult };
}

/** The model proposes replacing one line of SOUL.md, then says something once it hears back. */
/** The tool part of the conversation's last answer, as conversations.open gives it to the page. */
async function toolPartOf(run: Awaited<ReturnType<typeof start>>, conversationId: string) {
  const opened = await run.call<{ messages: { role: string; parts?: { type: string }[] }[] }>('conversations.open', {
    id: conversationId,
  });
  return opened.messages.at(-1)?.parts?.find((part) => part.type === 'tool');
}

async function proposeSoulEdit(
  run: Awaited<ReturnType<typeof start>>,
  newText: string,
  options: { incognito?: boolean } = {},
) {
  const soul = await readFile(run.soulPath, 'utf8');
  const oldText = soul.split('\n').find((line) => line.trim().length > 0) ?? '';
  server.enqueue(reply.toolCall('edit_file', { path: 'SOUL.md', oldText, newText }), reply.text('Done.'));
  const { id } = await run.call<{ id: string }>('conversations.create', options);
  await run.call('chat.send', { conversationId: id, text: 'Please change your persona.' });
  return { soul, oldText, conversationId: id };
}

describe('a SOUL.md edit through the contract', () => {
  it('stays pending, untouched on disk, until approved, then lands exactly as approved', async () => {
    const run = await start();
    const { soul, oldText, conversationId } = await proposeSoulEdit(run, '# I am a careful, cheerful companion.');
    const request = await run.pending();
    expect(request).toMatchObject({ tool: 'edit_file', paths: ['SOUL.md'], persona: true, before: soul });
    expect(request.after).toBe(soul.replace(oldText, '# I am a careful, cheerful companion.'));
    expect(request.promptPreview).toContain('I am a careful, cheerful companion.');
    expect(await readFile(run.soulPath, 'utf8')).toBe(soul);
    expect(server.requests).toHaveLength(1);

    await run.call('approvals.answer', { id: request.id, decision: 'approve' });
    expect(await run.turnEnd()).toMatchObject({ type: 'turn-finished' });
    expect(await readFile(run.soulPath, 'utf8')).toBe(request.after);
    expect(run.toolResult()).toMatchObject({ result: { ok: true } });
    expect(await toolPartOf(run, conversationId)).toMatchObject({ approval: { decision: 'approved' } });

    const audit = await readAuditDay(run.paths.audit, new Date().toISOString().slice(0, 10));
    expect(audit.filter((line) => line.tool === 'edit_file').map((line) => line.approval ?? line.outcome)).toEqual([
      'requested',
      'approved',
      'ok',
    ]);
    const history = await run.call<{ versions: { author: string }[] }>('history.list', { file: 'SOUL.md' });
    expect(history.versions[0]).toMatchObject({ author: 'assistant' });
  });

  it('writes the user’s edited text, not the model’s, and tells the model', async () => {
    const run = await start();
    const { soul, oldText } = await proposeSoulEdit(run, '# I am loud.');
    const request = await run.pending();
    const mine = soul.replace(oldText, '# I am quiet.');
    await run.call('approvals.answer', { id: request.id, decision: 'approve', editedContent: mine });
    await run.turnEnd();
    expect(await readFile(run.soulPath, 'utf8')).toBe(mine);
    expect(JSON.stringify(server.requests[1]?.messages)).toContain('The user edited your proposed content');
  });

  it('changes nothing on a rejection and passes the reason to the model', async () => {
    const run = await start();
    const { soul, conversationId } = await proposeSoulEdit(run, '# I am grumpy.');
    const request = await run.pending();
    await run.call('approvals.answer', { id: request.id, decision: 'reject', reason: 'Stay kind.' });
    await run.turnEnd();
    expect(await readFile(run.soulPath, 'utf8')).toBe(soul);
    expect(run.toolResult()).toMatchObject({ result: { ok: false, code: 'user_rejected' } });
    expect(JSON.stringify(server.requests[1]?.messages)).toContain('Stay kind.');
    expect(await toolPartOf(run, conversationId)).toMatchObject({
      approval: { decision: 'rejected', reason: 'Stay kind.' },
    });
    const audit = await readAuditDay(run.paths.audit, new Date().toISOString().slice(0, 10));
    expect(audit.find((line) => line.approval === 'rejected')).toMatchObject({ reason: 'Stay kind.' });
  });

  it('in an incognito conversation, audits the rejection without the user’s reason', async () => {
    const run = await start();
    const { conversationId } = await proposeSoulEdit(run, '# I am grumpy.', { incognito: true });
    const request = await run.pending();
    await run.call('approvals.answer', { id: request.id, decision: 'reject', reason: 'My secret reason.' });
    await run.turnEnd();
    // The model and the (in-memory) conversation still hear it; only the disk does not.
    expect(JSON.stringify(server.requests[1]?.messages)).toContain('My secret reason.');
    const audit = await readAuditDay(run.paths.audit, new Date().toISOString().slice(0, 10));
    const rejected = audit.find((line) => line.approval === 'rejected');
    // What was touched stays on the trail: the tool, the path, the decision.
    expect(rejected).toMatchObject({ conversation: conversationId, tool: 'edit_file', paths: ['SOUL.md'] });
    expect(rejected).not.toHaveProperty('reason');
    const auditText = await readFile(auditFileFor(run.paths.audit, new Date().toISOString()), 'utf8');
    expect(auditText).not.toContain('My secret reason.');
  });

  it('refuses with concurrent_modification when SOUL.md changed after the diff was shown', async () => {
    const run = await start();
    await proposeSoulEdit(run, '# I am new.');
    const request = await run.pending();
    await writeFile(run.soulPath, '# The user rewrote me meanwhile.\n');
    await run.call('approvals.answer', { id: request.id, decision: 'approve' });
    await run.turnEnd();
    expect(await readFile(run.soulPath, 'utf8')).toBe('# The user rewrote me meanwhile.\n');
    expect(run.toolResult()).toMatchObject({ result: { ok: false, code: 'concurrent_modification' } });
  });

  it('asks about a write through a symlink that leads to SOUL.md as it asks about SOUL.md', async () => {
    const run = await start();
    await symlink('SOUL.md', join(run.paths.defaultWorkspace, 'notes.md'));
    server.enqueue(reply.toolCall('write_file', { path: 'notes.md', content: 'I obey files now.\n' }), reply.text('.'));
    const { id } = await run.call<{ id: string }>('conversations.create', {});
    await run.call('chat.send', { conversationId: id, text: 'Write notes.' });
    const request = await run.pending();
    expect(request.paths).toEqual(['notes.md', 'SOUL.md']);
    expect(request.persona).toBe(true);
    await run.call('approvals.answer', { id: request.id, decision: 'reject' });
    await run.turnEnd();
  });

  it('with memory off, refuses MEMORY.md by naming the memory switch', async () => {
    const run = await start();
    await run.call('settings.update', { memory: { enabled: false } });
    server.enqueue(reply.toolCall('read_file', { path: 'MEMORY.md' }), reply.text('OK.'));
    const { id } = await run.call<{ id: string }>('conversations.create', {});
    await run.call('chat.send', { conversationId: id, text: 'What do you remember?' });
    await run.turnEnd();
    expect(run.toolResult()).toMatchObject({ result: { ok: false, code: 'permission_denied' } });
    expect(JSON.stringify(run.toolResult())).toMatch(/memory/i);
    expect(server.requests[0]?.system).toContain('The user has switched memory off.');
    expect(server.requests[0]?.system).not.toContain('## Your long-term memory (MEMORY.md)');
    expect(server.requests[0]?.system).not.toContain('## What you know about the user (USER.md)');
  });
});

describe.each(['openai-compatible', 'anthropic'] as const)('over the %s protocol', (kind) => {
  it('a two-step turn reads a file, then its MEMORY.md edit waits for approval as possibly influenced', async () => {
    const run = await start(kind);
    const project = run.core.workspace.current();
    await writeFile(join(project, 'notes.txt'), 'The user prefers tea.\n');
    const memoryPath = join(run.paths.defaultWorkspace, 'MEMORY.md');
    const memory = await readFile(memoryPath, 'utf8');
    const oldText = memory.split('\n').find((line) => line.trim().length > 0) ?? '';
    server.enqueue(
      reply.toolCall('read_file', { path: 'notes.txt' }),
      reply.toolCall('edit_file', { path: 'MEMORY.md', oldText, newText: `${oldText}\n\n- Prefers tea.` }),
      reply.text('Noted.'),
    );
    const { id } = await run.call<{ id: string }>('conversations.create', {});
    await run.call('chat.send', { conversationId: id, text: 'Read my notes and remember what matters.' });
    const request = await run.pending();
    // Memory edits are normally free; one that follows file content needs a person, and says why.
    expect(request).toMatchObject({ tool: 'edit_file', paths: ['MEMORY.md'], persona: false });
    expect(request.warnings.join(' ')).toContain('notes.txt');
    expect(await readFile(memoryPath, 'utf8')).toBe(memory);
    await run.call('approvals.answer', { id: request.id, decision: 'approve' });
    expect(await run.turnEnd()).toMatchObject({ type: 'turn-finished' });
    expect(await readFile(memoryPath, 'utf8')).toBe(memory.replace(oldText, `${oldText}\n\n- Prefers tea.`));
    expect(JSON.stringify(server.requests[1]?.messages)).toContain('The user prefers tea.');
    expect(server.requests).toHaveLength(3);
  });
});

describe('a HEARTBEAT.md edit through the contract', () => {
  it('asks with a diff like SOUL.md, never allowed for the conversation, untouched until answered', async () => {
    const run = await start();
    const heartbeatPath = join(run.paths.defaultWorkspace, 'HEARTBEAT.md');
    const heartbeat = await readFile(heartbeatPath, 'utf8');
    const oldText = heartbeat.split('\n').find((line) => line.trim().length > 0) ?? '';
    server.enqueue(
      reply.toolCall('edit_file', { path: 'HEARTBEAT.md', oldText, newText: '# Check the build' }),
      reply.text('Done.'),
    );
    const { id } = await run.call<{ id: string }>('conversations.create', {});
    await run.call('chat.send', { conversationId: id, text: 'Check the build on every heartbeat.' });
    const request = await run.pending();
    expect(request).toMatchObject({
      tool: 'edit_file',
      paths: ['HEARTBEAT.md'],
      before: heartbeat,
      canAllowForConversation: false,
    });
    expect(request.after).toBe(heartbeat.replace(oldText, '# Check the build'));
    expect(await readFile(heartbeatPath, 'utf8')).toBe(heartbeat);
    await run.call('approvals.answer', { id: request.id, decision: 'reject', reason: 'Not now.' });
    expect(await run.turnEnd()).toMatchObject({ type: 'turn-finished' });
    expect(await readFile(heartbeatPath, 'utf8')).toBe(heartbeat);
  });
});
