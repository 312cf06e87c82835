import { pageApi as contract } from '../../test-support/page-api';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { err, ok } from '../../../shared/result';
import { configuredStatus, notConfigured, summary, userMessage } from '../../test-support/fixtures';
import { initialConversationsState, useConversationsStore } from '../conversations/conversations-store';
import { initialProvidersState, useProvidersStore } from '../providers/providers-store';
import { initialChatState, useChatStore } from './chat-store';
import { useTransfersStore } from '../transfers/transfers-store';
import { Composer } from './Composer';
import { DRAFTS_STORAGE_KEY, NEW_CONVERSATION_DRAFT, useDraftsStore } from './drafts-store';

const id = 'c-conversation-1';

function readyThread(runningTurnId: string | null = null) {
  useChatStore.setState({
    threads: {
      [id]: {
        status: 'ready',
        thread: { messages: [userMessage('m-message-1', 'earlier')], runningTurnId, errorReceivedAt: {} },
        loadError: null,
        skippedLines: 0,
        busy: null,
        actionError: null,
        joinedMidTurn: false,
      },
    },
  });
}

beforeEach(() => {
  localStorage.clear();
  contract.reset({
    'chat.send': () => ok({ turnId: 't-turn-0001', userMessageId: 'm-message-2' }),
    'chat.stop': () => ok({ stopped: true }),
  });
  useChatStore.setState(initialChatState());
  useDraftsStore.setState({ drafts: {} });
  useConversationsStore.setState(initialConversationsState());
  useProvidersStore.setState({ ...initialProvidersState(), status: configuredStatus() });
  readyThread();
});

const box = () => screen.getByRole('textbox', { name: 'Message to Familiar' });

describe('Composer', () => {
  it('puts the notes of files uploaded since the last message in front of it, once', async () => {
    const user = userEvent.setup();
    useTransfersStore.setState({
      uploads: [
        {
          name: 'report.txt',
          path: 'uploads/report.txt',
          bytes: 3,
          note: "The user uploaded 'report.txt' to uploads/report.txt (3 bytes).",
        },
      ],
    });
    render(<Composer conversationId={id} />);
    await user.type(box(), 'Summarize it{Enter}');
    await user.type(box(), 'Thanks{Enter}');
    expect(contract.inputsOf('chat.send')).toEqual([
      {
        conversationId: id,
        text: "The user uploaded 'report.txt' to uploads/report.txt (3 bytes).\n\nSummarize it",
      },
      { conversationId: id, text: 'Thanks' },
    ]);
  });

  it('sends on Enter and clears the draft; Shift+Enter adds a line instead', async () => {
    const user = userEvent.setup();
    render(<Composer conversationId={id} />);
    await user.type(box(), 'first line');
    await user.keyboard('{Shift>}{Enter}{/Shift}second line');
    expect(box()).toHaveProperty('value', 'first line\nsecond line');
    expect(contract.inputsOf('chat.send')).toEqual([]);

    await user.keyboard('{Enter}');
    expect(contract.inputsOf('chat.send')).toEqual([{ conversationId: id, text: 'first line\nsecond line' }]);
    expect(box()).toHaveProperty('value', '');
    expect(localStorage.getItem(DRAFTS_STORAGE_KEY)).toBe('{}');
  });

  it('does not send while an input method is composing (Enter picks the characters)', () => {
    render(<Composer conversationId={id} />);
    fireEvent.change(box(), { target: { value: 'nihao' } });
    fireEvent.keyDown(box(), { key: 'Enter', isComposing: true });
    fireEvent.keyDown(box(), { key: 'Enter', keyCode: 229 });
    expect(contract.inputsOf('chat.send')).toEqual([]);
  });

  it('keeps a draft per conversation, saved as it is typed', async () => {
    const user = userEvent.setup();
    const { rerender } = render(<Composer conversationId={id} />);
    await user.type(box(), 'half a thought');
    expect(JSON.parse(localStorage.getItem(DRAFTS_STORAGE_KEY) ?? '{}')).toEqual({ [id]: 'half a thought' });
    rerender(<Composer conversationId={null} />);
    expect(box()).toHaveProperty('value', '');
    rerender(<Composer conversationId={id} />);
    expect(box()).toHaveProperty('value', 'half a thought');
  });

  it('gives the words back when the core refuses the message', async () => {
    contract.answer('chat.send', () => err('turn_in_progress', 'busy'));
    const user = userEvent.setup();
    render(<Composer conversationId={id} />);
    await user.type(box(), 'try this{Enter}');
    await act(() => Promise.resolve());
    expect(box()).toHaveProperty('value', 'try this');
    expect(useChatStore.getState().threads[id]?.actionError?.code).toBe('turn_in_progress');
  });

  it('turns Send into Stop while a turn runs; Esc in the box stops it and keeps the draft', async () => {
    readyThread('t-turn-0001');
    const user = userEvent.setup();
    render(<Composer conversationId={id} />);
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('');
    await user.type(box(), 'next question{Enter}');
    expect(contract.inputsOf('chat.send')).toEqual([]);
    // Enter did nothing visible before: now it says why, and that the words stay.
    expect(screen.getByRole('status').textContent).toContain('Not sent yet: Familiar is still answering.');
    await user.keyboard('{Escape}');
    expect(contract.inputsOf('chat.stop')).toEqual([{ conversationId: id }]);
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(contract.inputsOf('chat.stop')).toHaveLength(2);
    expect(box()).toHaveProperty('value', 'next question');
    act(() => readyThread(null));
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('explains, and offers the setup, when no provider is configured', async () => {
    useProvidersStore.setState({ status: notConfigured() });
    const user = userEvent.setup();
    render(<Composer conversationId={id} />);
    expect(screen.getByRole('note').textContent).toContain('Choose a model provider before the first message.');
    await user.type(box(), 'hello{Enter}');
    expect(contract.inputsOf('chat.send')).toEqual([]);
    expect(screen.getByRole('button', { name: 'Send' })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'Set up a model provider' }));
    expect(useProvidersStore.getState().dialogOpen).toBe(true);
  });

  it('creates a conversation for the first message, carrying the draft over', async () => {
    const created = summary('c-created-0002', 'New conversation');
    contract.answer('conversations.create', () => ok(created));
    contract.answer('conversations.open', () =>
      ok({ conversation: created, messages: [], runningTurnId: null, skippedLines: 0 }),
    );
    const user = userEvent.setup();
    render(<Composer conversationId={null} />);
    await user.type(box(), 'Hello there');
    expect(useDraftsStore.getState().drafts[NEW_CONVERSATION_DRAFT]).toBe('Hello there');
    await user.keyboard('{Enter}');
    await act(() => Promise.resolve());
    expect(contract.inputsOf('chat.send')).toEqual([{ conversationId: created.id, text: 'Hello there' }]);
    expect(useConversationsStore.getState().activeId).toBe(created.id);
    expect(useDraftsStore.getState().drafts).toEqual({});
  });
});
