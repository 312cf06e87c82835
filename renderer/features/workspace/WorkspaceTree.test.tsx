import { pageApi } from '../../test-support/page-api';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { WorkspaceEntry } from '../../../shared/ipc/workspace';
import { err, ok } from '../../../shared/result';
import { giveLayout } from '../../test-support/jsdom-layout';
import { WorkspaceTree } from './WorkspaceTree';
import { useWorkspaceStore, workspaceActions } from './workspace-store';
import { workspaceEntry as entry } from '../../test-support/fixtures';

giveLayout('.workspace-tree', 280, 600);

const folders: Record<string, WorkspaceEntry[]> = {
  '': [entry('src', 'directory'), entry('notes.md'), entry('SOUL.md', 'file', { persona: true })],
  src: [entry('src/main.ts')],
};

beforeEach(async () => {
  pageApi.reset();
  useWorkspaceStore.setState({ root: null, dirs: {}, expanded: {}, activePath: null, viewer: null, showIgnored: true });
  pageApi.answer('workspace.listDir', ({ path }) => {
    const entries = folders[path];
    return entries === undefined
      ? err('file_not_found', `'${path}' does not exist.`)
      : ok({ path, entries, omitted: 0 });
  });
  pageApi.answer('workspace.readFile', ({ path }) => ok({ path, text: 'text', size: 4 }));
  await workspaceActions.openRoot(pageApi.api, '/home/ada/project');
});

const item = (name: string) => screen.getByRole('treeitem', { name: new RegExp(`^${name}`) });

describe('WorkspaceTree', () => {
  it('expands a folder lazily and opens a file with the keyboard', async () => {
    render(<WorkspaceTree />);
    const tree = screen.getByRole('tree', { name: 'Workspace files' });
    expect(
      within(tree)
        .getAllByRole('treeitem')
        .map((row) => row.getAttribute('data-path')),
    ).toEqual(['src', 'notes.md', 'SOUL.md']);
    expect(item('SOUL.md').textContent).toContain('Lives in the Familiar home');
    expect(pageApi.calls.map((call) => call.input)).toEqual([{ path: '' }]);

    act(() => tree.focus());
    expect(item('src').getAttribute('aria-selected')).toBe('true');
    expect(tree.getAttribute('aria-activedescendant')).toBe(item('src').id);
    await userEvent.keyboard('{ArrowRight}');
    expect(await screen.findByRole('treeitem', { name: /^main\.ts/ })).toBeTruthy();
    expect(item('src').getAttribute('aria-expanded')).toBe('true');
    await userEvent.keyboard('{ArrowRight}{Enter}');
    expect(useWorkspaceStore.getState().viewer).toMatchObject({ path: 'src/main.ts', status: 'loaded' });
    await userEvent.keyboard('{ArrowLeft}');
    expect(item('src').getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('{ArrowLeft}');
    expect(screen.queryByRole('treeitem', { name: /^main\.ts/ })).toBeNull();
  });

  it('follows workspace.changed without listing again, and ignores another root’s events', () => {
    const stop = workspaceActions.connect(pageApi.api);
    render(<WorkspaceTree />);
    const listed = pageApi.calls.length;
    act(() =>
      pageApi.emit('workspace.changed', {
        root: '/home/ada/project',
        added: [entry('b.md')],
        changed: [],
        removed: ['notes.md'],
        reload: [],
      }),
    );
    expect(screen.getAllByRole('treeitem').map((row) => row.getAttribute('data-path'))).toEqual([
      'src',
      'b.md',
      'SOUL.md',
    ]);
    act(() =>
      pageApi.emit('workspace.changed', {
        root: '/elsewhere',
        added: [entry('x.md')],
        changed: [],
        removed: [],
        reload: [],
      }),
    );
    expect(screen.queryByRole('treeitem', { name: /^x\.md/ })).toBeNull();
    expect(pageApi.calls.length).toBe(listed);
    stop();
  });

  it('dims or hides ignored entries and shows a folder that cannot be listed', async () => {
    folders[''] = [entry('gone', 'directory'), entry('debug.log', 'file', { ignored: true })];
    await act(() => workspaceActions.load(pageApi.api, ''));
    render(<WorkspaceTree />);
    expect(item('debug.log').className).toContain('tree-row-ignored');
    act(() => workspaceActions.setShowIgnored(false));
    expect(screen.queryByRole('treeitem', { name: /^debug\.log/ })).toBeNull();
    await userEvent.click(item('gone'));
    expect(await screen.findByText("Cannot list: 'gone' does not exist.")).toBeTruthy();
  });
});
