import { pageApi } from '../../test-support/page-api';
import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { WorkspaceEntry } from '../../../shared/ipc/workspace';
import { ok } from '../../../shared/result';
import { giveLayout } from '../../test-support/jsdom-layout';
import { workspaceEntry as entry } from '../../test-support/fixtures';
import { mergeProblems, totalProblems } from './problem-counts';
import { ProblemsTotal } from './ProblemCounts';
import { WorkspaceTree } from './WorkspaceTree';
import { useWorkspaceStore, workspaceActions } from './workspace-store';

giveLayout('.workspace-tree', 280, 600);

const root = '/home/ada/project';
const folders: Record<string, WorkspaceEntry[]> = { '': [entry('a.ts'), entry('b.ts'), entry('notes.md')] };

describe('problem counts', () => {
  it('keep each file at its latest counts and drop a file once it has none', () => {
    let problems = mergeProblems({}, [
      { path: 'a.ts', errors: 2, warnings: 0 },
      { path: 'b.ts', errors: 0, warnings: 0 },
    ]);
    expect(problems).toEqual({ 'a.ts': { errors: 2, warnings: 0 } });
    problems = mergeProblems(problems, [{ path: 'b.ts', errors: 1, warnings: 3 }]);
    expect(totalProblems(problems)).toEqual({ errors: 3, warnings: 3 });
    problems = mergeProblems(problems, [{ path: 'a.ts', errors: 0, warnings: 0 }]);
    expect(problems).toEqual({ 'b.ts': { errors: 1, warnings: 3 } });
    expect(totalProblems({})).toEqual({ errors: 0, warnings: 0 });
  });

  describe('in the tree and the header', () => {
    beforeEach(async () => {
      pageApi.reset();
      useWorkspaceStore.setState({ root: null, dirs: {}, expanded: {}, activePath: null, viewer: null });
      pageApi.answer('workspace.listDir', ({ path }) => ok({ path, entries: folders[path] ?? [], omitted: 0 }));
      await workspaceActions.openRoot(pageApi.api, root);
    });

    it('show what main publishes for this workspace, nothing before, and start over in another folder', async () => {
      const stop = workspaceActions.connect(pageApi.api);
      render(
        <>
          <ProblemsTotal />
          <WorkspaceTree />
        </>,
      );
      const row = (name: string) => screen.getByRole('treeitem', { name: new RegExp(`^${name.replace('.', '\\.')}`) });
      // No server ran: no counts anywhere.
      expect(screen.queryByTestId('problems-total')).toBeNull();
      expect(row('a.ts').querySelector('.problem-counts')).toBeNull();

      act(() =>
        pageApi.emit('problems.changed', {
          root,
          files: [
            { path: 'a.ts', errors: 2, warnings: 1 },
            { path: 'b.ts', errors: 0, warnings: 1 },
          ],
        }),
      );
      expect(row('a.ts').textContent).toContain('2 errors, 1 warning');
      expect(row('b.ts').textContent).toContain('1 warning');
      expect(row('notes.md').querySelector('.problem-counts')).toBeNull();
      expect(screen.getByTestId('problems-total').textContent).toContain('2 errors, 2 warnings');

      // Counts from a folder no longer shown are ignored.
      act(() =>
        pageApi.emit('problems.changed', { root: '/elsewhere', files: [{ path: 'notes.md', errors: 5, warnings: 0 }] }),
      );
      expect(row('notes.md').querySelector('.problem-counts')).toBeNull();

      act(() => pageApi.emit('problems.changed', { root, files: [{ path: 'a.ts', errors: 0, warnings: 0 }] }));
      expect(row('a.ts').querySelector('.problem-counts')).toBeNull();
      expect(screen.getByTestId('problems-total').textContent).toContain('1 warning');

      await act(() => workspaceActions.openRoot(pageApi.api, '/home/ada/other'));
      expect(screen.queryByTestId('problems-total')).toBeNull();
      stop();
    });
  });
});
