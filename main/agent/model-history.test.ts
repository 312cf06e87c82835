import { describe, expect, it } from 'vitest';
import { foldTranscript } from '../domain/conversations/transcript-fold';
import { stamp } from '../domain/conversations/transcript-records';
import type { NewRecord } from '../domain/conversations/transcript-records';
import { toChatMessages } from '../domain/conversations/transcript-view';
import { toModelMessages } from './model-history';

const T1 = 't0000000-one';
const T2 = 't0000000-two';
const T3 = 't0000000-three';

function fold(records: NewRecord[]) {
  return foldTranscript(records.map((record) => stamp(record)));
}

const firstExchange: NewRecord[] = [
  { type: 'conversation', id: 'c0000000-test' },
  { type: 'user', messageId: 'm0000000-one', text: 'What is in notes.md?' },
  { type: 'turn-start', turnId: T1, userMessageId: 'm0000000-one', retryOf: null },
  { type: 'text', turnId: T1, step: 0, text: 'Let me look.' },
  { type: 'tool-call', turnId: T1, step: 0, toolCallId: 'call_1', name: 'read_file', args: { path: 'notes.md' } },
  { type: 'tool-result', turnId: T1, toolCallId: 'call_1', name: 'read_file', result: { ok: true, value: 'buy milk' } },
  { type: 'tool-call', turnId: T1, step: 0, toolCallId: 'call_2', name: 'read_file', args: { path: 'gone.md' } },
  {
    type: 'tool-result',
    turnId: T1,
    toolCallId: 'call_2',
    name: 'read_file',
    result: { ok: false, error: { code: 'file_not_found', message: 'gone.md does not exist' } },
  },
  { type: 'text', turnId: T1, step: 1, text: 'It says: buy milk.' },
  { type: 'turn-end', turnId: T1, status: 'complete', finishReason: 'stop' },
];

describe('toModelMessages (prompt assembly from the transcript)', () => {
  it('replays user text, assistant text and tool calls, and typed results in order', () => {
    expect(toModelMessages(fold(firstExchange))).toEqual([
      { role: 'user', content: 'What is in notes.md?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look.' },
          { type: 'tool-call', toolCallId: 'call_1', toolName: 'read_file', input: { path: 'notes.md' } },
          { type: 'tool-call', toolCallId: 'call_2', toolName: 'read_file', input: { path: 'gone.md' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_1',
            toolName: 'read_file',
            output: { type: 'text', value: 'buy milk' },
          },
          {
            type: 'tool-result',
            toolCallId: 'call_2',
            toolName: 'read_file',
            output: {
              type: 'error-json',
              value: { ok: false, error: { code: 'file_not_found', message: 'gone.md does not exist' } },
            },
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'It says: buy milk.' }] },
    ]);
  });

  it('shows how the user answered an approval recorded by the registry', () => {
    const withApproval = fold([
      ...firstExchange.slice(0, 5),
      { type: 'approval', toolCallId: 'call_1', decision: 'rejected', reason: 'Not that file' },
    ]);
    expect(toChatMessages(withApproval, null)[1]).toMatchObject({
      parts: [
        { type: 'text', text: 'Let me look.' },
        { type: 'tool', toolCallId: 'call_1', approval: { decision: 'rejected', reason: 'Not that file' } },
      ],
    });
  });

  it('answers a call that never got its result (stop or crash) with an aborted error', () => {
    const interrupted = fold([
      ...firstExchange,
      { type: 'user', messageId: 'm0000000-two', text: 'Now edit it' },
      { type: 'turn-start', turnId: T2, userMessageId: 'm0000000-two', retryOf: null },
      { type: 'tool-call', turnId: T2, step: 0, toolCallId: 'call_3', name: 'edit_file', args: { path: 'notes.md' } },
    ]);
    const messages = toModelMessages(interrupted);
    expect(messages.at(-1)).toMatchObject({
      role: 'tool',
      content: [
        { toolCallId: 'call_3', output: { type: 'error-json', value: { ok: false, error: { code: 'aborted' } } } },
      ],
    });
    expect(toChatMessages(interrupted, null).at(-1)).toMatchObject({ role: 'assistant', status: 'interrupted' });
    expect(toChatMessages(interrupted, T2).at(-1)).toMatchObject({ role: 'assistant', status: 'running' });
  });

  it('on retry keeps only the tool steps of the failed attempt, and the user message once', () => {
    const failed: NewRecord[] = [
      ...firstExchange,
      { type: 'user', messageId: 'm0000000-two', text: 'Summarize notes.md' },
      { type: 'turn-start', turnId: T2, userMessageId: 'm0000000-two', retryOf: null },
      { type: 'tool-call', turnId: T2, step: 0, toolCallId: 'call_4', name: 'read_file', args: { path: 'notes.md' } },
      {
        type: 'tool-result',
        turnId: T2,
        toolCallId: 'call_4',
        name: 'read_file',
        result: { ok: true, value: 'buy milk' },
      },
      { type: 'text', turnId: T2, step: 1, text: 'The notes are abou' },
      {
        type: 'turn-end',
        turnId: T2,
        status: 'error',
        error: { code: 'network_error', message: 'down', retryable: true },
      },
    ];
    const forRetry = toModelMessages(fold(failed), { supersedeLast: true });
    expect(forRetry.slice(4)).toEqual([
      { role: 'user', content: 'Summarize notes.md' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'call_4', toolName: 'read_file', input: { path: 'notes.md' } }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_4',
            toolName: 'read_file',
            output: { type: 'text', value: 'buy milk' },
          },
        ],
      },
    ]);

    // After the retry succeeded, the next request sees the retry's answer, not the broken text.
    const retried = fold([
      ...failed,
      { type: 'turn-start', turnId: T3, userMessageId: 'm0000000-two', retryOf: T2 },
      { type: 'text', turnId: T3, step: 0, text: 'They are a shopping list.' },
      { type: 'turn-end', turnId: T3, status: 'complete', finishReason: 'stop' },
    ]);
    const later = toModelMessages(retried);
    expect(later.filter((message) => message.role === 'user')).toHaveLength(2);
    expect(JSON.stringify(later)).not.toContain('The notes are abou');
    expect(later.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'They are a shopping list.' }] });
    const view = toChatMessages(retried, null);
    expect(
      view.map((message) => (message.role === 'user' ? 'user' : `${message.status}:${message.retryOf ?? '-'}`)),
    ).toEqual(['user', 'complete:-', 'user', 'error:-', `complete:${T2}`]);
  });
});
