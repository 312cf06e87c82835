import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { fitToContext, replyReserve } from './context-budget';
import { estimateMessagesTokens, estimateTextTokens } from './token-estimate';

const user = (text: string): ModelMessage => ({ role: 'user', content: text });
const assistant = (text: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });
const toolCall = (id: string): ModelMessage => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName: 'read_file', input: { path: `${id}.md` } }],
});
const toolResult = (id: string, text: string): ModelMessage => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: id, toolName: 'read_file', output: { type: 'text', value: text } }],
});

/** Three exchanges, two of them with a large tool output. */
function conversation(): ModelMessage[] {
  return [
    user('first question'),
    toolCall('a'),
    toolResult('a', 'x'.repeat(8_000)),
    assistant('first answer'),
    user('second question'),
    toolCall('b'),
    toolResult('b', 'y'.repeat(8_000)),
    assistant('second answer'),
    user('third question'),
  ];
}

const outputOf = (message: ModelMessage | undefined) =>
  message?.role === 'tool' && message.content[0]?.type === 'tool-result' ? message.content[0].output : undefined;

describe('estimateTextTokens', () => {
  it('counts ~4 ASCII characters, 1 CJK character or 2 other letters per token', () => {
    expect(estimateTextTokens('')).toBe(0);
    expect(estimateTextTokens('abcdefgh')).toBe(2);
    expect(estimateTextTokens('你好世界')).toBe(4);
    expect(estimateTextTokens('こんにちは')).toBe(5);
    expect(estimateTextTokens('привет')).toBe(3);
    // An emoji is one character in two UTF-16 units: counted once.
    expect(estimateTextTokens('😀😀')).toBe(1);
  });
});

describe('fitToContext', () => {
  it('leaves a conversation that fits untouched', () => {
    const messages = conversation();
    const fitted = fitToContext(messages, { contextWindow: 100_000, fixedTokens: 500 });
    expect(fitted.ok && fitted.value.messages).toEqual(messages);
    expect(fitted.ok && fitted.value.report).toMatchObject({ elidedToolOutputs: 0, droppedMessages: 0 });
    expect(fitted.ok && fitted.value.cutThrough).toBe(-1);
  });

  it('elides old tool outputs first, oldest first, with a marker naming the tool', () => {
    const messages = conversation();
    const total = estimateMessagesTokens(messages);
    // Room for everything but one of the two 2000-token outputs.
    const contextWindow = total - 1_500 + replyReserve(total);
    const fitted = fitToContext(messages, { contextWindow, fixedTokens: 0 });
    if (!fitted.ok) throw new Error(fitted.error.message);
    expect(fitted.value.report).toMatchObject({ elidedToolOutputs: 1, droppedMessages: 0 });
    expect(outputOf(fitted.value.messages[2])).toMatchObject({
      type: 'text',
      value: expect.stringMatching(/^\[Elided to fit the context window: this read_file output/) as unknown,
    });
    // The latest output, the one the model is about to read, is intact.
    expect(outputOf(fitted.value.messages[6])).toEqual({ type: 'text', value: 'y'.repeat(8_000) });
    expect(fitted.value.report.estimatedTokens).toBeLessThanOrEqual(fitted.value.report.budgetTokens);
    // What was cut ends at the elided output (memory capture keeps what came up to there).
    expect(fitted.value.cutThrough).toBe(2);
    // The input is not mutated.
    expect(outputOf(messages[2])).toEqual({ type: 'text', value: 'x'.repeat(8_000) });
  });

  it('then drops whole older exchanges and tells the model what was asked in them', () => {
    const messages = [
      user('tell me about cats'),
      assistant('c'.repeat(6_000)),
      user('and dogs?'),
      assistant('d'.repeat(6_000)),
      user('and birds?'),
    ];
    const fitted = fitToContext(messages, { contextWindow: 1_024 + 2_000, fixedTokens: 100 });
    if (!fitted.ok) throw new Error(fitted.error.message);
    expect(fitted.value.report.droppedMessages).toBe(2);
    expect(fitted.value.messages).toHaveLength(3);
    const first = fitted.value.messages[0];
    expect(first?.role).toBe('user');
    expect(first?.content).toMatch(
      /^\[Context note: the 2 earliest messages .* "tell me about cats"\.\]\n\nand dogs\?$/,
    );
    expect(fitted.value.messages.at(-1)).toEqual(user('and birds?'));
    expect(fitted.value.cutThrough).toBe(1);
  });

  it('never splits a tool call from its result when dropping', () => {
    const fitted = fitToContext(conversation(), { contextWindow: 1_024 + 2_050, fixedTokens: 0 });
    if (!fitted.ok) throw new Error(fitted.error.message);
    expect(fitted.value.report.droppedMessages).toBeGreaterThan(0);
    const kept = fitted.value.messages;
    expect(kept[0]?.role).toBe('user');
    const calls = kept.flatMap((message) =>
      message.role === 'assistant' && Array.isArray(message.content)
        ? message.content.filter((part) => part.type === 'tool-call').map((part) => part.toolCallId)
        : [],
    );
    const results = kept.flatMap((message) =>
      message.role === 'tool'
        ? message.content.map((part) => (part.type === 'tool-result' ? part.toolCallId : ''))
        : [],
    );
    expect(calls).toEqual(results);
  });

  it('elides even the latest tool output when only the current exchange is left', () => {
    const messages = [user('read it'), toolCall('z'), toolResult('z', 'z'.repeat(40_000))];
    const fitted = fitToContext(messages, { contextWindow: 8_000, fixedTokens: 1_000 });
    if (!fitted.ok) throw new Error(fitted.error.message);
    expect(fitted.value.report.elidedToolOutputs).toBe(1);
    expect(fitted.value.messages).toHaveLength(3);
    expect(fitted.value.cutThrough).toBe(2);
  });

  it('answers context_too_long when the message alone cannot fit, or the system prompt fills the window', () => {
    const huge = fitToContext([user('w'.repeat(100_000))], { contextWindow: 8_000, fixedTokens: 100 });
    expect(huge).toMatchObject({ ok: false, error: { code: 'context_too_long' } });
    const noRoom = fitToContext([user('hi')], { contextWindow: 2_000, fixedTokens: 5_000 });
    expect(noRoom).toMatchObject({ ok: false, error: { code: 'context_too_long' } });
  });
});
