import { beforeEach, describe, expect, it } from 'vitest';
import { LAYOUT_STORAGE_KEY, layoutActions, readSavedLayout, useLayoutStore } from './layout-store';

beforeEach(() => {
  localStorage.clear();
  useLayoutStore.setState({ wanted: { workspace: true, conversations: true }, overlay: null, width: 1280 });
});

describe('layout toggles', () => {
  it('hide a docked panel and remember it', () => {
    layoutActions.toggle('workspace', false);
    expect(useLayoutStore.getState().wanted.workspace).toBe(false);
    expect(readSavedLayout(localStorage)).toEqual({ workspace: false, conversations: true });
    layoutActions.toggle('workspace', false);
    expect(JSON.parse(localStorage.getItem(LAYOUT_STORAGE_KEY)!)).toEqual({ workspace: true, conversations: true });
  });

  it('float a panel that does not fit beside the chat, without changing what is remembered', () => {
    layoutActions.setWidth(760);
    layoutActions.toggle('conversations', true);
    expect(useLayoutStore.getState().overlay).toBe('conversations');
    expect(useLayoutStore.getState().wanted.conversations).toBe(true);
    layoutActions.toggle('conversations', true);
    expect(useLayoutStore.getState().overlay).toBeNull();
  });

  it('ignore a damaged saved entry', () => {
    localStorage.setItem(LAYOUT_STORAGE_KEY, '{"workspace":"no"');
    expect(readSavedLayout(localStorage)).toEqual({ workspace: true, conversations: true });
    localStorage.setItem(LAYOUT_STORAGE_KEY, '{"workspace":false,"conversations":7}');
    expect(readSavedLayout(localStorage)).toEqual({ workspace: false, conversations: true });
  });
});
