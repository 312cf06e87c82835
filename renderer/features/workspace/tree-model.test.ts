import { describe, expect, it } from 'vitest';
import type { WorkspaceEntry } from '../../../shared/ipc/workspace';
import { applyChanges, visibleRows } from './tree-model';
import type { Dirs } from './tree-model';
import { workspaceEntry as entry } from '../../test-support/fixtures';

const loaded = (...entries: WorkspaceEntry[]) => ({ status: 'loaded' as const, entries, omitted: 0, error: null });
const change = (parts: Partial<{ added: WorkspaceEntry[]; changed: WorkspaceEntry[]; removed: string[] }>) => ({
  root: '/w',
  added: [],
  changed: [],
  removed: [],
  reload: [],
  ...parts,
});
const names = (dirs: Dirs, path: string) => dirs[path]?.entries.map((held) => held.name);

describe('applyChanges', () => {
  const dirs: Dirs = {
    '': loaded(entry('src', 'directory'), entry('a.md'), entry('c.md')),
    src: loaded(entry('src/lib', 'directory'), entry('src/main.ts')),
    'src/lib': loaded(entry('src/lib/x.ts')),
  };
  const expanded = { src: true, 'src/lib': true } as const;

  it('inserts added entries in tree order (folders first, natural names)', () => {
    const next = applyChanges(
      dirs,
      expanded,
      change({ added: [entry('b.md'), entry('docs', 'directory'), entry('a10.md')] }),
    );
    expect(names(next.dirs, '')).toEqual(['docs', 'src', 'a.md', 'a10.md', 'b.md', 'c.md']);
  });

  it('ignores changes in folders that were never listed', () => {
    const next = applyChanges(dirs, expanded, change({ added: [entry('docs/readme.md')] }));
    expect(next.dirs).toEqual(dirs);
  });

  it('drops a removed folder with its loaded descendants and their expansion', () => {
    const next = applyChanges(dirs, expanded, change({ removed: ['src'] }));
    expect(names(next.dirs, '')).toEqual(['a.md', 'c.md']);
    expect(Object.keys(next.dirs)).toEqual(['']);
    expect(next.expanded).toEqual({});
  });

  it('replaces a changed entry in place, and an added one that is already there', () => {
    const next = applyChanges(
      dirs,
      expanded,
      change({ changed: [entry('a.md', 'file', { size: 9 })], added: [entry('c.md', 'file', { size: 3 })] }),
    );
    expect(next.dirs['']?.entries.map((held) => [held.name, held.size])).toEqual([
      ['src', 0],
      ['a.md', 9],
      ['c.md', 3],
    ]);
  });
});

describe('visibleRows', () => {
  it('walks expanded folders depth-first and shows each folder’s state', () => {
    const dirs: Dirs = {
      '': loaded(
        entry('empty', 'directory'),
        entry('src', 'directory'),
        entry('wait', 'directory'),
        entry('z.log', 'file', { ignored: true }),
      ),
      src: { ...loaded(entry('src/a.ts')), omitted: 12 },
      empty: loaded(),
      wait: { status: 'loading', entries: [], omitted: 0, error: null },
    };
    const rows = visibleRows(dirs, { src: true, empty: true, wait: true }, true);
    expect(
      rows.map((row) =>
        row.kind === 'entry' ? `${row.depth}:${row.entry.path}` : `${row.depth}:[${row.status}${row.detail}]`,
      ),
    ).toEqual(['0:empty', '1:[empty]', '0:src', '1:src/a.ts', '1:[omitted12]', '0:wait', '1:[loading]', '0:z.log']);
    expect(visibleRows(dirs, {}, false).map((row) => (row.kind === 'entry' ? row.entry.name : row.status))).toEqual([
      'empty',
      'src',
      'wait',
    ]);
  });

  it('shows a folder that cannot be listed as an error row', () => {
    const dirs: Dirs = {
      '': loaded(entry('locked', 'directory')),
      locked: { status: 'error', entries: [], omitted: 0, error: { code: 'permission_denied', message: 'no access' } },
    };
    expect(visibleRows(dirs, { locked: true }, true).at(-1)).toMatchObject({
      kind: 'status',
      status: 'error',
      detail: 'no access',
    });
  });
});
