import { beforeEach, describe, expect, it } from 'vitest';
import type { ConversationSummary } from '../../../shared/ipc/conversations';
import { initialConversationsState, useConversationsStore } from '../conversations/conversations-store';
import {
  draftActions,
  DRAFTS_STORAGE_KEY,
  NEW_CONVERSATION_DRAFT,
  readSavedDrafts,
  useDraftsStore,
} from './drafts-store';

beforeEach(() => {
  localStorage.clear();
  useDraftsStore.setState({ drafts: {}, memoryOnly: new Set() });
  useConversationsStore.setState(initialConversationsState());
});

const summary = (id: string, incognito: boolean): ConversationSummary => ({
  id,
  title: 'New conversation',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  messageCount: 0,
  ...(incognito ? { incognito: true as const } : {}),
});

describe('drafts', () => {
  it('keeps one draft per conversation and writes each change to localStorage at once', () => {
    draftActions.setDraft('c-one-aaaa', 'first thought');
    draftActions.setDraft('c-two-bbbb', 'second');
    expect(JSON.parse(localStorage.getItem(DRAFTS_STORAGE_KEY) ?? '{}')).toEqual({
      'c-one-aaaa': 'first thought',
      'c-two-bbbb': 'second',
    });
    draftActions.clearDraft('c-one-aaaa');
    expect(readSavedDrafts(localStorage)).toEqual({ 'c-two-bbbb': 'second' });
    expect(useDraftsStore.getState().drafts).toEqual({ 'c-two-bbbb': 'second' });
  });

  it('moves the new-conversation draft to the conversation created for it', () => {
    draftActions.setDraft(NEW_CONVERSATION_DRAFT, 'hello');
    draftActions.moveDraft(NEW_CONVERSATION_DRAFT, 'c-new-cccc');
    expect(readSavedDrafts(localStorage)).toEqual({ 'c-new-cccc': 'hello' });
  });

  it('keeps an incognito conversation’s draft in memory only, even after the conversation is gone', () => {
    useConversationsStore.setState({
      conversations: [summary('c-secret-aaaa', true), summary('c-plain-bbbb', false)],
    });
    draftActions.setDraft('c-secret-aaaa', 'between us');
    draftActions.setDraft('c-plain-bbbb', 'ordinary');
    expect(useDraftsStore.getState().drafts).toEqual({ 'c-secret-aaaa': 'between us', 'c-plain-bbbb': 'ordinary' });
    expect(readSavedDrafts(localStorage)).toEqual({ 'c-plain-bbbb': 'ordinary' });

    // Deleted (or the app restarted): the draft left in memory must still not be written by the next change.
    useConversationsStore.setState({ conversations: [summary('c-plain-bbbb', false)] });
    draftActions.setDraft('c-plain-bbbb', 'ordinary, edited');
    expect(readSavedDrafts(localStorage)).toEqual({ 'c-plain-bbbb': 'ordinary, edited' });
    expect(localStorage.getItem(DRAFTS_STORAGE_KEY)).not.toContain('between us');
  });

  it('does not persist a draft moved to an incognito conversation', () => {
    useConversationsStore.setState({ conversations: [summary('c-secret-cccc', true)] });
    draftActions.setDraft(NEW_CONVERSATION_DRAFT, 'hush');
    draftActions.moveDraft(NEW_CONVERSATION_DRAFT, 'c-secret-cccc');
    expect(useDraftsStore.getState().drafts).toEqual({ 'c-secret-cccc': 'hush' });
    expect(readSavedDrafts(localStorage)).toEqual({});
  });

  it('reads back only well-formed drafts (a damaged entry is ignored, not fatal)', () => {
    localStorage.setItem(DRAFTS_STORAGE_KEY, '{"c-ok-dddd":"kept","c-bad-eeee":42}');
    expect(readSavedDrafts(localStorage)).toEqual({ 'c-ok-dddd': 'kept' });
    localStorage.setItem(DRAFTS_STORAGE_KEY, '{not json');
    expect(readSavedDrafts(localStorage)).toEqual({});
    localStorage.setItem(DRAFTS_STORAGE_KEY, '["a"]');
    expect(readSavedDrafts(localStorage)).toEqual({});
  });
});
