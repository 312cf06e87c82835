import { pageApi as contract } from '../../test-support/page-api';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { ok } from '../../../shared/result';
import { summary } from '../../test-support/fixtures';
import { initialChatState, useChatStore } from '../chat/chat-store';
import { ConversationSidebar } from './ConversationSidebar';
import { initialConversationsState, useConversationsStore } from './conversations-store';

const trip = summary('c-trip-00001', 'Trip plans', '2025-03-02T08:00:00.000Z');
const taxes = summary('c-taxes-0002', 'Tax return', '2025-03-01T08:00:00.000Z');

beforeEach(() => {
  contract.reset({
    'conversations.rename': ({ id, title }) => ok({ ...trip, id, title }),
    'conversations.delete': ({ id }) => ok({ id }),
    'conversations.restore': ({ id }) => ok({ ...trip, id }),
  });
  useChatStore.setState(initialChatState());
  useConversationsStore.setState({
    ...initialConversationsState(),
    status: 'ready',
    conversations: [trip, taxes],
    activeId: taxes.id,
  });
});

const row = (title: string) => screen.getByRole('button', { name: new RegExp(`^${title}`) });

describe('ConversationSidebar', () => {
  it('marks the open conversation and opens another on click', async () => {
    render(<ConversationSidebar />);
    expect(row('Tax return').getAttribute('aria-current')).toBe('page');
    await userEvent.setup().click(row('Trip plans'));
    expect(useConversationsStore.getState().activeId).toBe(trip.id);
  });

  it('renames in place with F2: Enter keeps the new title, Esc keeps the old one', async () => {
    const user = userEvent.setup();
    render(<ConversationSidebar />);
    row('Trip plans').focus();
    await user.keyboard('{F2}');
    await user.keyboard('{Escape}');
    expect(contract.inputsOf('conversations.rename')).toEqual([]);
    expect(row('Trip plans')).toBeTruthy();

    row('Trip plans').focus();
    await user.keyboard('{F2}');
    const field = screen.getByRole('textbox', { name: 'New title' });
    await user.clear(field);
    await user.type(field, 'Summer trip{Enter}');
    expect(contract.inputsOf('conversations.rename')).toEqual([{ id: trip.id, title: 'Summer trip' }]);
    expect(row('Summer trip')).toBeTruthy();
  });

  it('moves a conversation to the trash with the Delete key and offers Undo', async () => {
    const user = userEvent.setup();
    render(<ConversationSidebar />);
    row('Trip plans').focus();
    await user.keyboard('{Delete}');
    expect(contract.inputsOf('conversations.delete')).toEqual([{ id: trip.id }]);
    expect(screen.queryByRole('button', { name: /^Trip plans/ })).toBeNull();
    const undoBar = screen.getByRole('status');
    expect(undoBar.textContent).toContain('“Trip plans” moved to the trash.');
    await user.click(within(undoBar).getByRole('button', { name: 'Undo' }));
    expect(contract.inputsOf('conversations.restore')).toEqual([{ id: trip.id }]);
    expect(row('Trip plans').getAttribute('aria-current')).toBe('page');
  });

  it('marks conversations whose answer is still running', () => {
    useChatStore.setState({ running: { [trip.id]: 't-turn-0001' } });
    render(<ConversationSidebar />);
    expect(row('Trip plans').textContent).toContain('Answering…');
    expect(row('Tax return').textContent).not.toContain('Answering…');
  });
});
