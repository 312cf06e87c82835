import { pageApi as contract } from '../../test-support/page-api';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TurnError } from '../../../shared/ipc/chat';
import type { ChatMessage } from '../../../shared/ipc/conversations';
import { ok } from '../../../shared/result';
import { assistantMessage, summary, userMessage } from '../../test-support/fixtures';
import { initialConversationsState, useConversationsStore } from '../conversations/conversations-store';
import { initialProvidersState, useProvidersStore } from '../providers/providers-store';
import { AssistantMessageView } from './AssistantMessageView';
import { initialChatState, useChatStore } from './chat-store';

const id = 'c-conversation-1';
const failedAt = Date.parse('2025-03-01T10:00:00.000Z');

function showFailure(error: TurnError, receivedAt: number | undefined = failedAt) {
  const failed = assistantMessage('t-turn-0001', '', { status: 'error', error });
  const messages: ChatMessage[] = [userMessage('m-message-1', 'Hi'), failed];
  useChatStore.setState({
    threads: {
      [id]: {
        status: 'ready',
        thread: {
          messages,
          runningTurnId: null,
          errorReceivedAt: receivedAt === undefined ? {} : { 't-turn-0001': receivedAt },
        },
        loadError: null,
        skippedLines: 0,
        busy: null,
        actionError: null,
        joinedMidTurn: false,
      },
    },
  });
  if (failed.role !== 'assistant') throw new Error('unreachable');
  return render(<AssistantMessageView conversationId={id} message={failed} isLast superseded={false} />);
}

const notice = () => screen.getByRole('group', { name: 'The answer failed' });

beforeEach(() => {
  contract.reset({ 'chat.retry': () => ok({ turnId: 't-turn-0002' }) });
  useChatStore.setState(initialChatState());
  useProvidersStore.setState(initialProvidersState());
  useConversationsStore.setState(initialConversationsState());
});
afterEach(() => vi.useRealTimers());

describe('a failed turn', () => {
  it.each([
    ['auth_failed', 'The provider rejected the API key.', 'Open provider settings'],
    ['model_not_found', 'The provider does not know this model.', 'Open provider settings'],
    ['provider_not_configured', 'No model provider is set up yet.', 'Set up a model provider'],
    ['network_error', 'Could not reach the model server.', null],
    ['context_too_long', 'This conversation is too long for the model’s context window.', 'New conversation'],
  ] as const)('%s: says what happened in the user’s words and offers the way out', (code, sentence, action) => {
    showFailure({ code, message: `provider words for ${code}`, retryable: code === 'network_error' });
    expect(notice().textContent).toContain(sentence);
    expect(notice().textContent).toContain(`provider words for ${code}`);
    expect(within(notice()).getByRole('button', { name: 'Retry' })).toBeTruthy();
    if (action !== null) expect(within(notice()).getByRole('button', { name: action })).toBeTruthy();
  });

  it('opens the provider setup from a configuration error', async () => {
    showFailure({ code: 'provider_not_configured', message: 'none', retryable: false });
    await userEvent.setup().click(within(notice()).getByRole('button', { name: 'Set up a model provider' }));
    expect(useProvidersStore.getState().dialogOpen).toBe(true);
  });

  it('counts down a rate limit’s Retry-After before Retry is offered, then retries', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(failedAt + 500);
    showFailure({ code: 'provider_rate_limited', message: 'slow down', retryable: true, retryAfterSeconds: 3 });
    expect(notice().textContent).toContain('The provider is limiting how fast requests may be sent.');
    expect(notice().textContent).toContain('You can retry in 3 s.');
    expect(within(notice()).getByRole('button', { name: 'Retry in 3 s' })).toHaveProperty('disabled', true);

    await act(async () => {
      vi.advanceTimersByTime(1_000);
      await Promise.resolve();
    });
    expect(within(notice()).getByRole('button', { name: 'Retry in 2 s' })).toHaveProperty('disabled', true);
    await act(async () => {
      vi.advanceTimersByTime(2_000);
      await Promise.resolve();
    });
    const retry = within(notice()).getByRole('button', { name: 'Retry' });
    expect(retry).toHaveProperty('disabled', false);
    vi.useRealTimers();
    await userEvent.setup().click(retry);
    expect(contract.inputsOf('chat.retry')).toEqual([{ conversationId: id }]);
  });

  it('counts a rate limit loaded from history from when the attempt started (already over)', () => {
    showFailure({ code: 'provider_rate_limited', message: 'x', retryable: true, retryAfterSeconds: 5 }, undefined);
    expect(within(notice()).getByRole('button', { name: 'Retry' })).toHaveProperty('disabled', false);
  });

  it('offers no Retry on an attempt that is not the last one', () => {
    const failed = assistantMessage('t-turn-0001', '', {
      status: 'error',
      error: { code: 'network_error', message: 'down', retryable: true },
    });
    if (failed.role !== 'assistant') throw new Error('unreachable');
    render(<AssistantMessageView conversationId={id} message={failed} isLast={false} superseded={false} />);
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });
});

describe('a stopped or interrupted turn', () => {
  it.each([
    ['stopped', 'Stopped'],
    ['interrupted', 'Interrupted: Familiar closed before the answer was finished'],
  ] as const)('%s: keeps the partial text, says so, and can be retried', async (status, label) => {
    const message = assistantMessage('t-turn-0001', 'Half an ans', { status });
    if (message.role !== 'assistant') throw new Error('unreachable');
    useConversationsStore.setState({ conversations: [summary(id, 'Hi')] });
    render(<AssistantMessageView conversationId={id} message={message} isLast superseded={false} />);
    expect(screen.getByText('Half an ans')).toBeTruthy();
    expect(screen.getByText(label)).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(contract.inputsOf('chat.retry')).toEqual([{ conversationId: id }]);
  });

  it('folds an attempt a retry replaced into one line', () => {
    const message = assistantMessage('t-turn-0001', 'old text', {
      status: 'error',
      error: { code: 'network_error', message: 'down', retryable: true },
    });
    if (message.role !== 'assistant') throw new Error('unreachable');
    render(<AssistantMessageView conversationId={id} message={message} isLast={false} superseded />);
    expect(screen.getByText('Earlier attempt failed (network_error)')).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'The answer failed' })).toBeNull();
  });
});
