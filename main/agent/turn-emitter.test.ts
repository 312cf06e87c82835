import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../shared/ipc/chat';
import { createTurnEmitter, DELTA_FLUSH_MS } from './turn-emitter';

const ids = { conversationId: 'c0000000-test', turnId: 't0000000-test' };

describe('turn emitter', () => {
  it('batches text deltas and never lets an event overtake queued text', async () => {
    const sent: ChatEvent[] = [];
    const emitter = createTurnEmitter(ids, (event) => sent.push(event));
    emitter.text('Hel');
    emitter.text('lo');
    expect(sent).toEqual([]);
    emitter.event({ type: 'tool-call', ...ids, toolCallId: 'call_1', name: 'read_file', args: {} });
    expect(sent.map((event) => (event.type === 'text-delta' ? event.text : event.type))).toEqual([
      'Hello',
      'tool-call',
    ]);

    emitter.text(' world');
    await new Promise((resolve) => setTimeout(resolve, DELTA_FLUSH_MS * 3));
    expect(sent.at(-1)).toEqual({ type: 'text-delta', ...ids, text: ' world' });
    emitter.flush();
    expect(sent).toHaveLength(3);
  });
});
