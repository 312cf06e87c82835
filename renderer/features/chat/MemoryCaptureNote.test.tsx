import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../../shared/ipc/chat';
import { assistantMessage } from '../../test-support/fixtures';
import { AssistantMessageView } from './AssistantMessageView';
import { emptyThread, foldChatEvent, lastAttempt } from './chat-fold';
import { MemoryCaptureNote } from './MemoryCaptureNote';

const turn = { conversationId: 'c-conversation-1', turnId: 't-turn-0001' };
const context = { estimatedTokens: 10, budgetTokens: 100, elidedToolOutputs: 0, droppedMessages: 4 };

describe('memory kept before earlier messages left the context', () => {
  it('folds the live event into the running reply', () => {
    const events: ChatEvent[] = [
      { type: 'turn-started', ...turn, userMessage: null, retryOf: null, context },
      {
        type: 'memory-captured',
        ...turn,
        capture: { kept: [{ path: 'memory/2026-11-28.md', entry: '- [09:15] Tea.' }] },
      },
    ];
    const thread = events.reduce((current, event) => foldChatEvent(current, event, 1_000), emptyThread());
    expect(lastAttempt(thread.messages)).toMatchObject({
      status: 'running',
      parts: [],
      memoryCapture: { kept: [{ path: 'memory/2026-11-28.md', entry: '- [09:15] Tea.' }] },
    });
  });

  it('shows each entry written, without the note heading and the time stamp', () => {
    render(
      <MemoryCaptureNote
        capture={{
          kept: [
            { path: 'memory/2026-11-28.md', entry: '# 2026-11-28\n\n- [09:15] Ada drinks only green tea.' },
            { path: 'memory/2026-11-28.md', entry: '- [09:15] Kyoto trip in May.' },
          ],
        }}
      />,
    );
    const note = screen.getByRole('note', { name: 'Kept in memory before earlier messages left the context' });
    expect([...note.querySelectorAll('p')].map((line) => line.textContent)).toEqual([
      'Kept in memory/2026-11-28.md: Ada drinks only green tea.',
      'Kept in memory/2026-11-28.md: Kyoto trip in May.',
    ]);
  });

  it('comes first in the reply it was made for', () => {
    const message = assistantMessage('t-turn-0001', 'Here is the itinerary.', {
      memoryCapture: { kept: [{ path: 'memory/2026-11-28.md', entry: '- [09:15] Tea.' }] },
    });
    if (message.role !== 'assistant') throw new Error('unreachable');
    render(<AssistantMessageView conversationId={turn.conversationId} message={message} isLast superseded={false} />);
    const reply = screen.getByRole('article', { name: 'Familiar' });
    expect(reply.textContent).toBe('Kept in memory/2026-11-28.md: Tea.Here is the itinerary.');
  });

  it('says when nothing needed keeping, and when keeping failed', () => {
    const { unmount } = render(<MemoryCaptureNote capture={{ kept: [] }} />);
    expect(screen.getByRole('note').textContent).toBe(
      'Earlier messages left the model’s context; nothing in them needed keeping.',
    );
    unmount();
    render(<MemoryCaptureNote capture={{ kept: [], error: 'The provider answered 500.' }} />);
    expect(screen.getByRole('note').textContent).toBe(
      'Earlier messages left the model’s context, but keeping them in memory failed: The provider answered 500.',
    );
  });
});
