import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { CodeViewProps, CodeViewReady } from './code-view-props';
import { LazyCodeView } from './LazyCodeView';

// Monaco cannot run in jsdom: a stand-in editor that reports ready when told to, or fails to load.
const editors: { ready: (() => void) | null } = { ready: null };
vi.mock('./CodeView.lazy', () => ({
  default: (props: CodeViewProps & CodeViewReady) => {
    if (props.path === 'broken.md') throw new Error('the editor chunk did not load');
    editors.ready = () => props.onReady(props.path);
    return <p>editor for {props.path}</p>;
  },
}));

const file = (path: string): CodeViewProps => ({ kind: 'file', path, text: 'hello\n', theme: 'light', label: path });

describe('LazyCodeView', () => {
  it('is busy until the editor says it shows the path, again when another path comes in', async () => {
    const { rerender } = render(<LazyCodeView {...file('a.md')} />);
    const view = screen.getByTestId('code-view');
    expect(view.getAttribute('aria-busy')).toBe('true');
    await screen.findByText('editor for a.md');
    expect(view.getAttribute('aria-busy')).toBe('true');
    act(() => editors.ready?.());
    expect(view.getAttribute('aria-busy')).toBe('false');

    rerender(<LazyCodeView {...file('b.md')} />);
    expect(view.getAttribute('aria-busy')).toBe('true');
    act(() => editors.ready?.());
    expect(view.getAttribute('aria-busy')).toBe('false');
  });

  it('is not busy once the plain text stands in for an editor that failed to load', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(<LazyCodeView {...file('broken.md')} />);
    expect(await screen.findByRole('note')).toBeTruthy();
    expect(screen.getByTestId('code-view').getAttribute('aria-busy')).toBe('false');
    vi.restoreAllMocks();
  });
});
