import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef } from 'react';
import type { KeyboardEvent } from 'react';
import { useStoreFields } from '../../app/use-store-fields';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { parentOf, visibleRows } from './tree-model';
import type { TreeRow as Row } from './tree-model';
import { TreeRow } from './TreeRow';
import { useWorkspaceStore, workspaceActions } from './workspace-store';

const ROW_HEIGHT = 24;
const rowId = (index: number) => `workspace-row-${index}`;

function activate(row: Row): void {
  if (row.kind !== 'entry') return;
  workspaceActions.setActive(row.entry.path);
  if (row.entry.type === 'directory') void workspaceActions.toggle(familiar, row.entry.path);
  else if (row.entry.type === 'file') void workspaceActions.openFile(familiar, row.entry.path);
}

/**
 * The workspace as a virtualized tree: only the rows in view exist in the DOM, so a folder of 10,000
 * files opens at once. Focus stays on the tree; aria-activedescendant names the current row.
 */
export function WorkspaceTree() {
  const t = useT();
  const { dirs, expanded, showIgnored, activePath, problems } = useStoreFields(
    ['dirs', 'expanded', 'showIgnored', 'activePath', 'problems'],
    useWorkspaceStore,
  );
  const rows = useMemo(() => visibleRows(dirs, expanded, showIgnored), [dirs, expanded, showIgnored]);
  const scroller = useRef<HTMLDivElement>(null);
  // TanStack Virtual returns fresh functions each render; this app does not use the React Compiler,
  // so nothing memoizes them stale.
  // eslint-disable-next-line react-hooks/incompatible-library -- see above
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    initialRect: { width: 280, height: 600 },
  });

  const entryIndexes = useMemo(() => rows.flatMap((row, index) => (row.kind === 'entry' ? [index] : [])), [rows]);
  const activeIndex = rows.findIndex((row) => row.kind === 'entry' && row.entry.path === activePath);

  const moveTo = (index: number | undefined) => {
    const row = index === undefined ? undefined : rows[index];
    if (index === undefined || row?.kind !== 'entry') return;
    workspaceActions.setActive(row.entry.path);
    virtualizer.scrollToIndex(index);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const position = entryIndexes.indexOf(activeIndex);
    const row = rows[activeIndex];
    const entry = row?.kind === 'entry' ? row.entry : undefined;
    switch (event.key) {
      case 'ArrowDown':
        moveTo(position === -1 ? entryIndexes[0] : entryIndexes[position + 1]);
        break;
      case 'ArrowUp':
        moveTo(position === -1 ? entryIndexes[0] : entryIndexes[Math.max(0, position - 1)]);
        break;
      case 'Home':
        moveTo(entryIndexes[0]);
        break;
      case 'End':
        moveTo(entryIndexes.at(-1));
        break;
      case 'ArrowRight':
        if (entry?.type !== 'directory') return;
        if (row?.kind === 'entry' && !row.expanded) void workspaceActions.toggle(familiar, entry.path, true);
        else moveTo(entryIndexes[position + 1]);
        break;
      case 'ArrowLeft':
        if (entry === undefined) return;
        if (row?.kind === 'entry' && row.expanded) void workspaceActions.toggle(familiar, entry.path, false);
        else
          moveTo(
            rows.findIndex((candidate) => candidate.kind === 'entry' && candidate.entry.path === parentOf(entry.path)),
          );
        break;
      case 'Enter':
      case ' ':
        if (row !== undefined) activate(row);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  return (
    <div
      ref={scroller}
      className="workspace-tree"
      role="tree"
      aria-label={t('workspace.tree')}
      tabIndex={0}
      aria-activedescendant={activeIndex === -1 ? undefined : rowId(activeIndex)}
      onKeyDown={onKeyDown}
      onFocus={() => {
        if (activeIndex === -1 && entryIndexes[0] !== undefined) moveTo(entryIndexes[0]);
      }}
    >
      <div className="workspace-tree-inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          if (row === undefined) return null;
          return (
            <TreeRow
              key={row.kind === 'entry' ? row.entry.path : `status:${row.parent}:${row.status}`}
              row={row}
              id={rowId(item.index)}
              active={item.index === activeIndex}
              problems={row.kind === 'entry' ? problems[row.entry.path] : undefined}
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                height: item.size,
                transform: `translateY(${item.start}px)`,
              }}
              onActivate={() => activate(row)}
            />
          );
        })}
      </div>
    </div>
  );
}
