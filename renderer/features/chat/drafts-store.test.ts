import { beforeEach, describe, expect, it } from 'vitest';
import {
  draftActions,
  DRAFTS_STORAGE_KEY,
  NEW_CONVERSATION_DRAFT,
  readSavedDrafts,
  useDraftsStore,
} from './drafts-store';

beforeEach(() => {
  localStorage.clear();
  useDraftsStore.setState({ drafts: {} });
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

  it('reads back only well-formed drafts (a damaged entry is ignored, not fatal)', () => {
    localStorage.setItem(DRAFTS_STORAGE_KEY, '{"c-ok-dddd":"kept","c-bad-eeee":42}');
    expect(readSavedDrafts(localStorage)).toEqual({ 'c-ok-dddd': 'kept' });
    localStorage.setItem(DRAFTS_STORAGE_KEY, '{not json');
    expect(readSavedDrafts(localStorage)).toEqual({});
    localStorage.setItem(DRAFTS_STORAGE_KEY, '["a"]');
    expect(readSavedDrafts(localStorage)).toEqual({});
  });
});
