import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { reply, startScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import type { ScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import { openConversationStore } from '../domain/conversations/conversation-store';
import { kinds, textOf, useChatServiceKit } from '../test-support/chat-service-kit';

// A turn cut short: stopped by the user mid-stream or while a tool waits, or interrupted by a crash
// and answered again by a retry. Split from chat-service.test.ts by behaviour; the setup is shared
// through main/test-support/chat-service-kit.ts.

let server: ScriptedLlmServer;
const { setup } = useChatServiceKit(async () => (server = await startScriptedLlmServer()));

describe.each(['openai-compatible', 'anthropic'] as const)('a turn over the %s protocol', (kind) => {
  it('stops mid-stream: the request is aborted and the partial reply kept, marked stopped', async () => {
    const { id, chat, events, cancelled, lastAssistant } = await setup(kind);
    const full = 'word '.repeat(400);
    server.enqueue(reply.text(full, { chunkDelayMs: 10 }));
    await chat.send(id, 'Write a lot');
    await vi.waitFor(() => expect(textOf(events).length).toBeGreaterThan(20), { timeout: 5_000 });
    expect(chat.anyRunning()).toBe(true);

    expect(await chat.stop(id)).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'turn-stopped', reason: 'Stopped by the user.' });
    expect(cancelled).toEqual(['Stopped by the user.']);
    expect(chat.runningTurnId(id)).toBeNull();
    expect(chat.anyRunning()).toBe(false);
    await server.requests[0]?.done;
    expect(server.requests[0]?.closedEarly).toBe(true);

    const stopped = await lastAssistant();
    expect(stopped.status).toBe('stopped');
    const kept = stopped.parts[0]?.type === 'text' ? stopped.parts[0].text : '';
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(full.length);
    expect(full.startsWith(kept)).toBe(true);
    expect(await chat.stop(id)).toBe(false);
  });

  it('stops while a tool waits: pending approvals are cancelled and the call is answered as aborted', async () => {
    const { id, chat, events, cancelled, lastAssistant } = await setup(kind);
    server.enqueue(reply.toolCall('wait_for_stop', {}));
    await chat.send(id, 'Wait for me');
    await vi.waitFor(() => expect(kinds(events)).toContain('tool-call'), { timeout: 5_000 });
    await chat.stop(id);

    expect(cancelled).toHaveLength(1);
    expect(kinds(events)).toEqual(['turn-started', 'tool-call', 'tool-result', 'turn-stopped']);
    expect(await lastAssistant()).toMatchObject({
      status: 'stopped',
      parts: [{ type: 'tool', name: 'wait_for_stop', result: { ok: false, code: 'aborted' } }],
    });
  });
});

describe('turn management', () => {
  it('after a crash mid-turn: the torn line is skipped, the turn shows as interrupted, and retry answers it', async () => {
    const { home, id, chat, conversations, lastAssistant } = await setup('openai-compatible');
    // What a crash leaves: the user message and the turn's start are durable, the turn never ended,
    // and the process died while writing a record.
    await conversations.append(
      id,
      [
        { type: 'user', messageId: 'm0000000-crash', text: 'Are you still there?' },
        { type: 'turn-start', turnId: 't0000000-crash', userMessageId: 'm0000000-crash', retryOf: null },
        { type: 'text', turnId: 't0000000-crash', step: 0, text: 'Yes, I' },
      ],
      { sync: true },
    );
    // A synced append has already let go of the file, so it can be torn as a crash would leave it.
    const file = join(home, 'conversations', `${id}.jsonl`);
    await writeFile(file, `${await readFile(file, 'utf8')}{"v":1,"at":"2026-11-23T00:00:00.000Z","type":"text","tur`);

    const reopened = await openConversationStore({
      conversations: join(home, 'conversations'),
      trash: join(home, 'trash'),
    });
    const loaded = await reopened.load(id);
    expect(loaded.ok && loaded.value.skippedLines).toBe(1);
    expect(await lastAssistant()).toMatchObject({ status: 'interrupted', parts: [{ type: 'text', text: 'Yes, I' }] });

    server.enqueue(reply.text('Yes, I am here.'));
    const retried = await chat.retry(id);
    expect(retried.ok).toBe(true);
    await chat.idle(id);
    expect(await lastAssistant()).toMatchObject({ status: 'complete', retryOf: 't0000000-crash' });
    // The interrupted text is superseded: the model is asked the question again, cleanly.
    expect(server.requests[0]?.messages).toEqual([
      { role: 'system', content: expect.any(String) as unknown },
      { role: 'user', content: 'Are you still there?' },
    ]);
    const after = await reopened.load(id);
    expect(after.ok && after.value.skippedLines).toBe(0);
  });
});
