import '../../test-support/page-api';
import { render } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../shared/ipc/conversations';
import { assistantMessage, userMessage } from '../../test-support/fixtures';
import { MessageList } from './MessageList';

// jsdom does no layout: give the scroller a viewport and every row a height, as a browser would.
const restore: (() => void)[] = [];
function fakeLayout(property: 'clientHeight' | 'offsetHeight', value: (element: HTMLElement) => number) {
  const original = Object.getOwnPropertyDescriptor(HTMLElement.prototype, property);
  Object.defineProperty(HTMLElement.prototype, property, {
    configurable: true,
    get(this: HTMLElement) {
      return value(this);
    },
  });
  restore.push(() => {
    if (original !== undefined) Object.defineProperty(HTMLElement.prototype, property, original);
  });
}
beforeAll(() => {
  fakeLayout('clientHeight', (element) => (element.classList.contains('message-list') ? 600 : 0));
  fakeLayout('offsetHeight', (element) => (element.classList.contains('message-row') ? 100 : 0));
});
afterAll(() => restore.forEach((undo) => undo()));

function conversation(exchanges: number): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (let index = 0; index < exchanges; index++) {
    messages.push(userMessage(`m-message-${index}`, `Question ${index}`));
    messages.push(assistantMessage(`t-turn-${String(index).padStart(4, '0')}`, `Answer ${index}`));
  }
  return messages;
}

describe('MessageList', () => {
  it('puts only the rows near the viewport in the DOM, starting at the latest message', () => {
    const messages = conversation(500);
    const { container, getByText } = render(<MessageList conversationId="c-conversation-1" messages={messages} />);
    const rows = container.querySelectorAll('.message-row');
    expect(messages).toHaveLength(1000);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(40);
    expect(getByText('Answer 499')).toBeTruthy();
    expect(container.textContent).not.toContain('Question 0');
    // The scroll height still stands for the whole conversation.
    const inner = container.querySelector<HTMLElement>('.message-list-inner');
    expect(Number.parseInt(inner?.style.height ?? '0', 10)).toBeGreaterThan(50_000);
  });
});
