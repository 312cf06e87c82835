import { fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { planLayout, viewerWidthFor, viewerWidthRange } from './layout-plan';
import { PaneResizer } from './PaneResizer';
import { readSavedViewerWidth, useLayoutStore, VIEWER_WIDTH_STORAGE_KEY } from './layout-store';

beforeEach(() => {
  localStorage.clear();
  useLayoutStore.setState({ viewerWidth: null });
});

describe('the file pane width', () => {
  const both = planLayout(1600, { workspace: true, conversations: true }, true);

  it('is half of what the tree leaves until the user sets it, and never squeezes the chat', () => {
    expect(viewerWidthRange(1600, both)).toEqual({ min: 360, max: 700 });
    expect(viewerWidthFor(null, 1600, both)).toBe(670);
    expect(viewerWidthFor(2000, 1600, both)).toBe(700);
    expect(viewerWidthFor(100, 1600, both)).toBe(360);
  });
});

describe('PaneResizer', () => {
  it('is a focusable separator whose value the arrow keys, Home and End change, remembered', () => {
    render(<PaneResizer value={500} min={360} max={700} controls="file-viewer" />);
    const handle = screen.getByRole('separator', { name: /file pane/ });
    expect(handle.getAttribute('aria-valuenow')).toBe('500');
    expect(handle.getAttribute('aria-orientation')).toBe('vertical');
    expect(handle.getAttribute('tabindex')).toBe('0');
    fireEvent.keyDown(handle, { key: 'ArrowLeft' });
    expect(useLayoutStore.getState().viewerWidth).toBe(516);
    fireEvent.keyDown(handle, { key: 'ArrowRight', shiftKey: true });
    expect(useLayoutStore.getState().viewerWidth).toBe(420);
    fireEvent.keyDown(handle, { key: 'End' });
    expect(useLayoutStore.getState().viewerWidth).toBe(700);
    fireEvent.keyDown(handle, { key: 'Home' });
    expect(useLayoutStore.getState().viewerWidth).toBe(360);
    expect(localStorage.getItem(VIEWER_WIDTH_STORAGE_KEY)).toBe('360');
    expect(readSavedViewerWidth(localStorage)).toBe(360);
  });

  it('ignores a damaged saved width', () => {
    localStorage.setItem(VIEWER_WIDTH_STORAGE_KEY, 'wide');
    expect(readSavedViewerWidth(localStorage)).toBeNull();
  });
});
