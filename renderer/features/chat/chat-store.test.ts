import { beforeEach, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../../shared/ipc/chat';
import { err, ok } from '../../../shared/result';
import { editRequest } from '../../test-support/approval-requests';
import { createContractApi } from '../../test-support/contract-api';
import { assistantMessage, summary, userMessage } from '../../test-support/fixtures';
import { createChatActions, initialChatState, useChatStore } from './chat-store';

const id = 'c-conversation-1';
const contract = createContractApi();
const actions = createChatActions(contract.api, useChatStore, () => 5_000);
const context = { estimatedTokens: 1, budgetTokens: 10, elidedToolOutputs: 0, droppedMessages: 0 };
const event = (partial: Record<string, unknown>) =>
  ({ conversationId: id, turnId: 't-turn-0001', ...partial }) as ChatEvent;

beforeEach(() => {
  contract.reset();
  useChatStore.setState(initialChatState());
});

const opened = (runningTurnId: string | null, messages = [userMessage('m-message-1', 'Hi')]) =>
  ok({ conversation: summary(id, 'Hi'), messages, runningTurnId, skippedLines: 0 });

/** conversations.open answers with `snapshot` only when the returned function is called. */
function answerOpenLater(snapshot: ReturnType<typeof opened>): () => void {
  let answer!: () => void;
  contract.answer('conversations.open', () => new Promise((resolve) => (answer = () => resolve(snapshot))));
  return () => answer();
}

describe('chat store', () => {
  it('opens a conversation and folds live events into it', async () => {
    contract.answer('conversations.open', () => opened(null));
    await actions.open(id);
    actions.handleEvent(
      event({ type: 'turn-started', userMessage: null, retryOf: null, context, turnId: 't-turn-0001' }),
    );
    actions.handleEvent(event({ type: 'text-delta', text: 'Hello' }));
    const entry = useChatStore.getState().threads[id];
    expect(entry?.status).toBe('ready');
    expect(entry?.thread.messages.at(-1)).toMatchObject({
      status: 'running',
      parts: [{ type: 'text', text: 'Hello' }],
    });
    expect(useChatStore.getState().running[id]).toBe('t-turn-0001');

    actions.handleEvent(event({ type: 'turn-error', error: { code: 'network_error', message: 'x', retryable: true } }));
    expect(useChatStore.getState().running[id]).toBeUndefined();
    expect(useChatStore.getState().threads[id]?.thread.errorReceivedAt['t-turn-0001']).toBe(5_000);
  });

  it('reloads a conversation it joined mid-turn once that turn ends (text sent before the snapshot)', async () => {
    const running = [userMessage('m-message-1', 'Hi'), assistantMessage('t-turn-0001', 'Par', { status: 'running' })];
    contract.answer('conversations.open', () => opened('t-turn-0001', running));
    await actions.open(id);
    expect(useChatStore.getState().threads[id]?.joinedMidTurn).toBe(true);

    contract.answer('conversations.open', () =>
      opened(null, [userMessage('m-message-1', 'Hi'), assistantMessage('t-turn-0001', 'Partial and whole.')]),
    );
    actions.handleEvent(event({ type: 'turn-finished', usage: {}, finishReason: 'stop', steps: 1 }));
    await expect
      .poll(() => useChatStore.getState().threads[id]?.thread.messages.at(-1))
      .toMatchObject({
        status: 'complete',
        parts: [{ type: 'text', text: 'Partial and whole.' }],
      });
    expect(contract.inputsOf('conversations.open')).toHaveLength(2);
  });

  it('loads again when a turn ended while the snapshot was on its way', async () => {
    const answer = answerOpenLater(
      opened('t-turn-0001', [
        userMessage('m-message-1', 'Hi'),
        assistantMessage('t-turn-0001', 'So', { status: 'running' }),
      ]),
    );
    const opening = actions.open(id);
    await expect.poll(() => contract.inputsOf('conversations.open').length).toBe(1);
    actions.handleEvent(event({ type: 'turn-stopped', reason: 'x' }));
    contract.answer('conversations.open', () => opened(null));
    answer();
    await opening;
    expect(contract.inputsOf('conversations.open')).toHaveLength(2);
    expect(useChatStore.getState().threads[id]?.thread.runningTurnId).toBeNull();
  });

  it('folds in a turn that started while the snapshot was on its way, and shares one load between callers', async () => {
    const answer = answerOpenLater(opened(null));
    const first = actions.open(id);
    const second = actions.open(id);
    await expect.poll(() => contract.inputsOf('conversations.open').length).toBe(1);
    actions.handleEvent(
      event({
        type: 'turn-started',
        turnId: 't-turn-0002',
        userMessage: { role: 'user', id: 'm-message-2', text: 'Again', createdAt: '2025-03-01T10:00:00.000Z' },
        retryOf: null,
        context,
      }),
    );
    actions.handleEvent(event({ type: 'text-delta', turnId: 't-turn-0002', text: 'On it' }));
    answer();
    await Promise.all([first, second]);
    expect(contract.inputsOf('conversations.open')).toHaveLength(1);
    const thread = useChatStore.getState().threads[id]?.thread;
    expect(thread?.runningTurnId).toBe('t-turn-0002');
    expect(thread?.messages.map((message) => message.id)).toEqual(['m-message-1', 'm-message-2', 't-turn-0002']);
    expect(thread?.messages.at(-1)).toMatchObject({ parts: [{ type: 'text', text: 'On it' }] });
  });

  it('records why a send was refused, and clears it on the next attempt', async () => {
    contract.answer('conversations.open', () => opened(null));
    await actions.open(id);
    contract.answer('chat.send', () => err('provider_not_configured', 'Choose a model provider in Settings first.'));
    expect(await actions.send(id, 'Hello')).toBe(false);
    expect(useChatStore.getState().threads[id]?.actionError?.code).toBe('provider_not_configured');
    expect(contract.inputsOf('chat.send')).toEqual([{ conversationId: id, text: 'Hello' }]);

    contract.answer('chat.send', () => ok({ turnId: 't-turn-0002', userMessageId: 'm-message-2' }));
    expect(await actions.send(id, 'Hello')).toBe(true);
    expect(useChatStore.getState().threads[id]?.actionError).toBeNull();
  });

  it('tracks which tool calls wait for an approval, and puts the answer on the call', async () => {
    contract.answer('approvals.list', () => ok({ pending: [] }));
    contract.answer('conversations.open', () => opened(null));
    await actions.open(id);
    await actions.syncApprovals();
    actions.handleEvent(event({ type: 'turn-started', userMessage: null, retryOf: null, context }));
    actions.handleEvent(
      event({ type: 'tool-call', toolCallId: 'call-7', name: 'edit_file', args: { path: 'SOUL.md' } }),
    );
    actions.approvalRequested(
      editRequest({ id: 'approval-1', conversationId: id, toolCallId: 'call-7', paths: ['SOUL.md'], persona: true }),
    );
    expect(useChatStore.getState().awaitingApproval).toEqual({ 'call-7': 'approval-1' });
    actions.approvalResolved({ id: 'approval-1', conversationId: id, outcome: 'rejected', reason: 'Stay kind' });
    expect(useChatStore.getState().awaitingApproval).toEqual({});
    expect(useChatStore.getState().threads[id]?.thread.messages.at(-1)).toMatchObject({
      parts: [{ type: 'tool', toolCallId: 'call-7', approval: { decision: 'rejected', reason: 'Stay kind' } }],
    });
  });

  it('forgets a conversation moved to the trash', async () => {
    contract.answer('conversations.open', () => opened('t-turn-0001'));
    await actions.open(id);
    actions.forget(id);
    expect(useChatStore.getState().threads[id]).toBeUndefined();
    expect(useChatStore.getState().running[id]).toBeUndefined();
  });
});
