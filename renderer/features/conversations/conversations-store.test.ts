import { beforeEach, describe, expect, it } from 'vitest';
import { ok } from '../../../shared/result';
import { createContractApi } from '../../test-support/contract-api';
import { summary } from '../../test-support/fixtures';
import {
  ACTIVE_CONVERSATION_KEY,
  createConversationsActions,
  initialConversationsState,
  useConversationsStore,
} from './conversations-store';

const contract = createContractApi();
const actions = createConversationsActions(contract.api, useConversationsStore, localStorage);
const older = summary('c-older-0001', 'Older', '2025-03-01T08:00:00.000Z');
const newer = summary('c-newer-0002', 'Newer', '2025-03-02T08:00:00.000Z');

beforeEach(() => {
  localStorage.clear();
  contract.reset({ 'conversations.list': () => ok({ conversations: [older, newer] }) });
  useConversationsStore.setState(initialConversationsState());
});

describe('conversations store', () => {
  it('lists newest first and reopens the conversation remembered from last time', async () => {
    localStorage.setItem(ACTIVE_CONVERSATION_KEY, older.id);
    await actions.load();
    const state = useConversationsStore.getState();
    expect(state.conversations.map((item) => item.id)).toEqual([newer.id, older.id]);
    expect(state.activeId).toBe(older.id);
  });

  it('opens the newest when the remembered one is gone', async () => {
    localStorage.setItem(ACTIVE_CONVERSATION_KEY, 'c-deleted-0003');
    await actions.load();
    expect(useConversationsStore.getState().activeId).toBe(newer.id);
  });

  it('creates, renames and applies changes pushed by the core', async () => {
    await actions.load();
    const created = summary('c-created-0004', 'New conversation', '2025-03-03T08:00:00.000Z');
    contract.answer('conversations.create', () => ok(created));
    await actions.create();
    expect(useConversationsStore.getState().activeId).toBe(created.id);
    expect(localStorage.getItem(ACTIVE_CONVERSATION_KEY)).toBe(created.id);

    contract.answer('conversations.rename', ({ id, title }) => ok({ ...created, id, title }));
    expect(await actions.rename(created.id, '  Trip plans  ')).toBe(true);
    expect(contract.inputsOf('conversations.rename')).toEqual([{ id: created.id, title: 'Trip plans' }]);
    expect(useConversationsStore.getState().conversations[0]?.title).toBe('Trip plans');

    // An unchanged or empty title is not sent.
    await actions.rename(created.id, 'Trip plans');
    await actions.rename(created.id, '   ');
    expect(contract.inputsOf('conversations.rename')).toHaveLength(1);

    actions.applyChange({ kind: 'upsert', conversation: { ...older, updatedAt: '2025-03-04T08:00:00.000Z' } });
    expect(useConversationsStore.getState().conversations[0]?.id).toBe(older.id);
  });

  it('reuses the open conversation while it is untouched instead of saving another empty one', async () => {
    await actions.load();
    const fresh = { ...summary('c-fresh-0005', 'New conversation'), updatedAt: '2025-03-01T09:00:00.000Z' };
    contract.answer('conversations.create', () => ok(fresh));
    await actions.create();
    await actions.create();
    expect(contract.inputsOf('conversations.create')).toHaveLength(1);
    expect(useConversationsStore.getState().activeId).toBe(fresh.id);

    // A message, a rename (both move updatedAt) or a draft make it a conversation worth keeping.
    actions.applyChange({ kind: 'upsert', conversation: { ...fresh, messageCount: 1 } });
    await actions.create();
    expect(contract.inputsOf('conversations.create')).toHaveLength(2);
    const withDraft = createConversationsActions(contract.api, useConversationsStore, localStorage, () => true);
    actions.applyChange({ kind: 'upsert', conversation: fresh });
    actions.select(fresh.id);
    await withDraft.create();
    expect(contract.inputsOf('conversations.create')).toHaveLength(3);
  });

  it('moves a conversation to the trash and brings it back with undo', async () => {
    await actions.load();
    contract.answer('conversations.delete', ({ id }) => ok({ id }));
    await actions.remove(newer.id);
    let state = useConversationsStore.getState();
    expect(state.conversations.map((item) => item.id)).toEqual([older.id]);
    expect(state.activeId).toBe(older.id);
    expect(state.recentlyDeleted?.id).toBe(newer.id);

    contract.answer('conversations.restore', ({ id }) => ok({ ...newer, id }));
    await actions.undoRemove();
    state = useConversationsStore.getState();
    expect(contract.inputsOf('conversations.restore')).toEqual([{ id: newer.id }]);
    expect(state.conversations.map((item) => item.id)).toEqual([newer.id, older.id]);
    expect(state.activeId).toBe(newer.id);
    expect(state.recentlyDeleted).toBeNull();
  });

  it('shows only the answer to the latest search when answers arrive out of order', async () => {
    const answers = new Map<string, () => void>();
    contract.answer(
      'conversations.search',
      ({ query }) =>
        new Promise((resolve) =>
          answers.set(query, () => resolve(ok({ conversations: query === 'new' ? [newer] : [older, newer] }))),
        ),
    );
    const first = actions.search('ne');
    const second = actions.search('new');
    answers.get('new')?.();
    await second;
    answers.get('ne')?.();
    await first;
    expect(useConversationsStore.getState().searchResults?.map((item) => item.id)).toEqual([newer.id]);
    await actions.search('');
    expect(useConversationsStore.getState().searchResults).toBeNull();
  });
});
