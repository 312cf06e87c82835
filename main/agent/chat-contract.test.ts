import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { reply, startScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import type { ScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import type { ChatEvent } from '../../shared/ipc/chat';
import { chatEventSchema } from '../../shared/ipc/chat';
import { err, ok } from '../../shared/result';
import type { Core } from '../core/create-core';
import type { CallContext } from '../platform/ipc/dispatcher';
import { useTempDirs } from '../test-support/temp-dir';
import type { ToolExecutor } from '../tool-calls/tool-executor';
import { createTestCore } from '../test-support/test-core';

const tempDir = useTempDirs();
const ctx: CallContext = { transport: 'direct', clientId: 'test' };
let server: ScriptedLlmServer;
const cores: Core[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((core) => core.dispose('test over')));
  await server.close();
});

/** A real executor over the workspace: one tool that lists the files it holds. */
function workspaceExecutor(workspace: string): ToolExecutor {
  return {
    list: () => [{ name: 'list_files', description: 'Lists the workspace files.', input: z.object({}) }],
    systemPrompt: () => Promise.resolve('Persona from the registry.'),
    execute: async (call) =>
      call.name === 'list_files' ? ok((await readdir(workspace)).sort()) : err('unknown_tool', call.name),
    beginTurn: () => undefined,
    cancelPending: () => undefined,
  };
}

async function start(toolExecutor?: (workspace: string) => ToolExecutor) {
  server = await startScriptedLlmServer();
  const home = await tempDir();
  const workspace = join(home, 'project');
  await mkdir(workspace);
  const core = await createTestCore({
    home,
    workspace,
    toolExecutor: toolExecutor?.(workspace),
  });
  cores.push(core);
  const chatEvents: ChatEvent[] = [];
  const listChanges: unknown[] = [];
  core.events.subscribe((name, payload) => {
    if (name === 'chat.event') chatEvents.push(chatEventSchema.parse(payload));
    if (name === 'conversations.changed') listChanges.push(payload);
  });
  const call = async <T = unknown>(name: string, input: unknown): Promise<T> => {
    const result = await core.dispatch(name, input, ctx);
    if (!result.ok) throw new Error(`${name}: ${result.error.code}: ${result.error.message}`);
    return result.value as T;
  };
  await call('providers.save', {
    provider: { kind: 'openai-compatible', model: 'scripted-model', baseUrl: `${server.url}/v1` },
  });
  const turnEnd = () =>
    vi.waitFor(
      () => {
        const last = chatEvents.at(-1);
        if (last === undefined || !['turn-finished', 'turn-stopped', 'turn-error'].includes(last.type))
          throw new Error('running');
        return last;
      },
      { timeout: 5_000 },
    );
  return { core, home, workspace, call, chatEvents, listChanges, turnEnd };
}

describe('chat through the contract (dispatcher, event hub, real core)', () => {
  it('runs a conversation end to end with the registry-provided tools and prompt', async () => {
    const { call, workspace, chatEvents, listChanges, turnEnd } = await start(workspaceExecutor);
    await writeFile(join(workspace, 'MEMORY.md'), '# Memory\n');
    await writeFile(join(workspace, 'notes.md'), 'hello\n');

    const conversation = await call<{ id: string }>('conversations.create', {});
    server.enqueue(reply.toolCall('list_files', {}), reply.text('You have MEMORY.md and notes.md.'));
    const sent = await call<{ turnId: string }>('chat.send', {
      conversationId: conversation.id,
      text: 'Which files do I have?',
    });
    expect(await turnEnd()).toMatchObject({ type: 'turn-finished', turnId: sent.turnId });
    expect(chatEvents.find((event) => event.type === 'tool-result')).toMatchObject({
      result: { ok: true, value: ['MEMORY.md', 'notes.md'], summary: '2 items' },
    });
    expect(server.requests[0]?.system).toBe('Persona from the registry.');
    expect(server.requests[0]?.toolNames).toEqual(['list_files']);

    const opened = await call<{ messages: unknown[]; runningTurnId: string | null; conversation: { title: string } }>(
      'conversations.open',
      { id: conversation.id },
    );
    expect(opened.runningTurnId).toBeNull();
    expect(opened.conversation.title).toBe('Which files do I have?');
    expect(opened.messages).toMatchObject([
      { role: 'user', text: 'Which files do I have?' },
      {
        role: 'assistant',
        status: 'complete',
        parts: [
          { type: 'tool', name: 'list_files' },
          { type: 'text', text: 'You have MEMORY.md and notes.md.' },
        ],
      },
    ]);
    expect(listChanges).toContainEqual({
      kind: 'upsert',
      conversation: expect.objectContaining({ id: conversation.id, title: 'Which files do I have?' }) as unknown,
    });
  });

  it('by default, gives the model the persona prompt and exactly the tools of the registry', async () => {
    const { call, turnEnd, core } = await start();
    const { id } = await call<{ id: string }>('conversations.create', {});
    server.enqueue(reply.text('Hi.'));
    await call('chat.send', { conversationId: id, text: 'Hello' });
    await turnEnd();
    expect(server.requests[0]?.system).toContain('You are Familiar');
    expect(server.requests[0]?.system).toContain('## Tools');
    expect(server.requests[0]?.toolNames).toEqual(core.assistant.toolCalls.list(id).map((tool) => tool.name));
  });

  it('stops, renames, searches, deletes to the trash and restores', async () => {
    const { call, home, chatEvents, turnEnd } = await start();
    const { id } = await call<{ id: string }>('conversations.create', {});
    server.enqueue(reply.text('tick '.repeat(500), { chunkDelayMs: 5 }));
    await call('chat.send', { conversationId: id, text: 'Count forever' });
    await vi.waitFor(() => expect(chatEvents.some((event) => event.type === 'text-delta')).toBe(true));
    expect(await call('conversations.open', { id })).toMatchObject({ runningTurnId: chatEvents[0]?.turnId });
    expect(await call('chat.stop', { conversationId: id })).toEqual({ stopped: true });
    expect(await turnEnd()).toMatchObject({ type: 'turn-stopped' });

    await call('conversations.rename', { id, title: 'Counting sheep' });
    expect(await call('conversations.search', { query: 'SHEEP' })).toMatchObject({ conversations: [{ id }] });
    expect(await call('conversations.delete', { id })).toEqual({ id });
    expect(await call('conversations.list', {})).toEqual({ conversations: [] });
    expect(await readdir(join(home, 'trash', 'conversations'))).toEqual([`${id}.jsonl`]);
    expect(await call('conversations.list', { trash: true })).toMatchObject({
      conversations: [{ id, title: 'Counting sheep' }],
    });
    expect(await call('conversations.restore', { id })).toMatchObject({ id, title: 'Counting sheep', messageCount: 1 });
    expect(await call('conversations.open', { id })).toMatchObject({
      messages: [{ role: 'user' }, { role: 'assistant', status: 'stopped' }],
    });
  });

  it('deleting a conversation stops its running turn first', async () => {
    const { call, chatEvents, turnEnd } = await start();
    const { id } = await call<{ id: string }>('conversations.create', {});
    server.enqueue(reply.text('slow '.repeat(500), { chunkDelayMs: 5 }));
    await call('chat.send', { conversationId: id, text: 'Go' });
    await vi.waitFor(() => expect(chatEvents.some((event) => event.type === 'text-delta')).toBe(true));
    await call('conversations.delete', { id });
    expect(await turnEnd()).toMatchObject({ type: 'turn-stopped', reason: 'The conversation was deleted.' });
  });

  it('refuses calls with ids that are not Familiar ids', async () => {
    const { core } = await start();
    for (const [name, input] of [
      ['conversations.open', { id: '../../settings' }],
      ['chat.send', { conversationId: 'x/../y', text: 'hi' }],
    ] as const) {
      expect(await core.dispatch(name, input, ctx)).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    }
  });
});
