import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../../shared/ipc/chat';
import { emptyThread, foldChatEvent, lastAttempt, supersededTurnIds } from './chat-fold';
import type { ChatThread } from './chat-fold';

const conversationId = 'c-conversation-1';
const ids = (turnId: string) => ({ conversationId, turnId });
const context = { estimatedTokens: 10, budgetTokens: 1000, elidedToolOutputs: 0, droppedMessages: 0 };
const started = (turnId: string, text: string | null, retryOf: string | null = null): ChatEvent => ({
  type: 'turn-started',
  ...ids(turnId),
  userMessage: text === null ? null : { role: 'user', id: `m-${turnId}`, text, createdAt: '2025-01-01T00:00:00.000Z' },
  retryOf,
  context,
});
const fold = (events: readonly ChatEvent[], thread: ChatThread = emptyThread(), now = 1_000) =>
  events.reduce((current, event) => foldChatEvent(current, event, now), thread);

describe('foldChatEvent', () => {
  it('adds the user message and a running reply, then appends deltas to one text part', () => {
    const thread = fold([
      started('t-turn-0001', 'Hi'),
      { type: 'text-delta', ...ids('t-turn-0001'), text: 'Hel' },
      { type: 'text-delta', ...ids('t-turn-0001'), text: 'lo!' },
    ]);
    expect(thread.runningTurnId).toBe('t-turn-0001');
    expect(thread.messages).toHaveLength(2);
    expect(thread.messages[0]).toMatchObject({ role: 'user', text: 'Hi' });
    expect(thread.messages[1]).toMatchObject({
      role: 'assistant',
      id: 't-turn-0001',
      status: 'running',
      parts: [{ type: 'text', text: 'Hello!' }],
    });
  });

  it("keeps a running call's latest progress on its part, until its result", () => {
    const call: ChatEvent = {
      type: 'tool-call',
      ...ids('t-turn-0001'),
      toolCallId: 'call-1',
      name: 'srv__long',
      args: {},
    };
    const progress = (done: number): ChatEvent => ({
      type: 'tool-progress',
      ...ids('t-turn-0001'),
      toolCallId: 'call-1',
      progress: { done, total: 3, message: `step ${done}` },
    });
    const running = fold([started('t-turn-0001', 'Go'), call, progress(1), progress(2)]);
    expect(running.messages[1]).toMatchObject({
      parts: [{ type: 'tool', toolCallId: 'call-1', progress: { done: 2, total: 3, message: 'step 2' } }],
    });
    const result: ChatEvent = {
      type: 'tool-result',
      ...ids('t-turn-0001'),
      toolCallId: 'call-1',
      name: 'srv__long',
      result: { ok: true, summary: 'done' },
    };
    // A late notification after the result changes nothing.
    const done = fold([result, progress(3)], running);
    expect(done.messages[1]).toMatchObject({ parts: [{ type: 'tool', result: { ok: true }, progress: { done: 2 } }] });
  });

  it('puts tool calls between text parts and fills in their results', () => {
    const thread = fold([
      started('t-turn-0001', 'Read notes'),
      { type: 'text-delta', ...ids('t-turn-0001'), text: 'Reading.' },
      { type: 'tool-call', ...ids('t-turn-0001'), toolCallId: 'call-1', name: 'read_file', args: { path: 'a.md' } },
      {
        type: 'tool-result',
        ...ids('t-turn-0001'),
        toolCallId: 'call-1',
        name: 'read_file',
        result: { ok: true, summary: '3 lines', value: 'x' },
      },
      { type: 'text-delta', ...ids('t-turn-0001'), text: 'Done.' },
    ]);
    const reply = lastAttempt(thread.messages);
    expect(reply?.parts).toEqual([
      { type: 'text', text: 'Reading.' },
      {
        type: 'tool',
        toolCallId: 'call-1',
        name: 'read_file',
        args: { path: 'a.md' },
        result: { ok: true, summary: '3 lines', value: 'x' },
      },
      { type: 'text', text: 'Done.' },
    ]);
  });

  it('ends the turn as complete, stopped or failed, keeping the text', () => {
    const base = fold([started('t-turn-0001', 'Q'), { type: 'text-delta', ...ids('t-turn-0001'), text: 'Part' }]);
    const finished = fold(
      [{ type: 'turn-finished', ...ids('t-turn-0001'), usage: { outputTokens: 3 }, finishReason: 'stop', steps: 1 }],
      base,
    );
    expect(finished.runningTurnId).toBeNull();
    expect(lastAttempt(finished.messages)).toMatchObject({ status: 'complete', finishReason: 'stop' });

    const stopped = fold([{ type: 'turn-stopped', ...ids('t-turn-0001'), reason: 'Stopped by the user.' }], base);
    expect(lastAttempt(stopped.messages)).toMatchObject({ status: 'stopped', parts: [{ type: 'text', text: 'Part' }] });

    const error = {
      code: 'provider_rate_limited' as const,
      message: 'slow down',
      retryable: true,
      retryAfterSeconds: 5,
    };
    const failed = fold([{ type: 'turn-error', ...ids('t-turn-0001'), error }], base, 42_000);
    expect(lastAttempt(failed.messages)).toMatchObject({ status: 'error', error });
    expect(failed.errorReceivedAt['t-turn-0001']).toBe(42_000);
    expect(failed.runningTurnId).toBeNull();
  });

  it('appends a retry as a new attempt that names the one it replaces', () => {
    const thread = fold([
      started('t-turn-0001', 'Q'),
      {
        type: 'turn-error',
        ...ids('t-turn-0001'),
        error: { code: 'network_error', message: 'down', retryable: true },
      },
      started('t-turn-0002', null, 't-turn-0001'),
      { type: 'text-delta', ...ids('t-turn-0002'), text: 'Now it works' },
    ]);
    expect(thread.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(lastAttempt(thread.messages)).toMatchObject({ id: 't-turn-0002', retryOf: 't-turn-0001' });
    expect([...supersededTurnIds(thread.messages)]).toEqual(['t-turn-0001']);
  });

  it('ignores a repeated turn-started and events for turns it never saw', () => {
    const once = fold([started('t-turn-0001', 'Q')]);
    expect(fold([started('t-turn-0001', 'Q')], once).messages).toHaveLength(2);
    const stray = fold([{ type: 'text-delta', ...ids('t-turn-0009'), text: 'lost' }], once);
    expect(stray).toBe(once);
  });

  it('keeps another turn running when an older one ends', () => {
    const thread = fold([
      started('t-turn-0001', 'Q'),
      { type: 'turn-stopped', ...ids('t-turn-0001'), reason: 'x' },
      started('t-turn-0002', 'Q2'),
      { type: 'turn-stopped', ...ids('t-turn-0001'), reason: 'late duplicate' },
    ]);
    expect(thread.runningTurnId).toBe('t-turn-0002');
  });
});
