import { compareWorkspaceEntries } from '../../../shared/ipc/workspace';
import type { WorkspaceChanges, WorkspaceEntry } from '../../../shared/ipc/workspace';
import type { FamiliarError } from '../../../shared/errors';

export interface DirState {
  readonly status: 'loading' | 'loaded' | 'error';
  /** Sorted as main sorts them (compareWorkspaceEntries); kept while a reload is in flight. */
  readonly entries: readonly WorkspaceEntry[];
  readonly omitted: number;
  readonly error: FamiliarError | null;
}

export type Dirs = Readonly<Record<string, DirState>>;

export type TreeRow =
  | { readonly kind: 'entry'; readonly entry: WorkspaceEntry; readonly depth: number; readonly expanded: boolean }
  | {
      readonly kind: 'status';
      readonly parent: string;
      readonly depth: number;
      readonly status: 'loading' | 'error' | 'empty' | 'omitted';
      readonly detail: string;
    };

export const parentOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const isWithin = (dir: string, path: string) => path === dir || path.startsWith(`${dir}/`);

/** Index where `entry` belongs in a sorted listing (binary search: a folder may hold 10,000). */
function insertionIndex(entries: readonly WorkspaceEntry[], entry: WorkspaceEntry): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareWorkspaceEntries(entries[middle] as WorkspaceEntry, entry) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

function upsert(entries: readonly WorkspaceEntry[], entry: WorkspaceEntry): WorkspaceEntry[] {
  const rest = entries.filter((held) => held.path !== entry.path);
  const index = insertionIndex(rest, entry);
  return [...rest.slice(0, index), entry, ...rest.slice(index)];
}

/**
 * Applies one batch of changes to the listings held: only folders already listed change (the others
 * will be listed fresh when opened); a removed folder takes its loaded descendants with it.
 */
export function applyChanges(dirs: Dirs, expanded: Readonly<Record<string, true>>, changes: WorkspaceChanges) {
  const nextDirs: Record<string, DirState> = { ...dirs };
  const nextExpanded: Record<string, true> = { ...expanded };
  const edit = (parent: string, change: (entries: readonly WorkspaceEntry[]) => readonly WorkspaceEntry[]) => {
    const dir = nextDirs[parent];
    if (dir !== undefined && dir.status !== 'error') nextDirs[parent] = { ...dir, entries: change(dir.entries) };
  };
  for (const path of changes.removed) {
    edit(parentOf(path), (entries) => entries.filter((entry) => entry.path !== path));
    for (const dir of Object.keys(nextDirs)) if (isWithin(path, dir)) delete nextDirs[dir];
    for (const dir of Object.keys(nextExpanded)) if (isWithin(path, dir)) delete nextExpanded[dir];
  }
  for (const entry of [...changes.added, ...changes.changed]) {
    edit(parentOf(entry.path), (entries) => upsert(entries, entry));
    // A folder replaced by a file (or the other way round) must not keep a stale listing.
    if (entry.type !== 'directory') delete nextDirs[entry.path];
  }
  return { dirs: nextDirs as Dirs, expanded: nextExpanded };
}

/** The rows the tree shows, in order: a depth-first walk through the expanded, loaded folders. */
export function visibleRows(dirs: Dirs, expanded: Readonly<Record<string, true>>, showIgnored: boolean): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (path: string, depth: number) => {
    const dir = dirs[path];
    if (dir === undefined || (dir.status === 'loading' && dir.entries.length === 0)) {
      rows.push({ kind: 'status', parent: path, depth, status: 'loading', detail: '' });
      return;
    }
    if (dir.status === 'error') {
      rows.push({ kind: 'status', parent: path, depth, status: 'error', detail: dir.error?.message ?? '' });
      return;
    }
    let shown = 0;
    for (const entry of dir.entries) {
      if (entry.ignored && !showIgnored) continue;
      shown += 1;
      const open = entry.type === 'directory' && expanded[entry.path] === true;
      rows.push({ kind: 'entry', entry, depth, expanded: open });
      if (open) walk(entry.path, depth + 1);
    }
    if (dir.omitted > 0)
      rows.push({ kind: 'status', parent: path, depth, status: 'omitted', detail: String(dir.omitted) });
    else if (shown === 0) rows.push({ kind: 'status', parent: path, depth, status: 'empty', detail: '' });
  };
  walk('', 0);
  return rows;
}
