import type { CSSProperties } from 'react';
import { useT } from '../../i18n/i18n';
import { ProblemCounts } from './ProblemCounts';
import type { ProblemCount } from './problem-counts';
import type { TreeRow as Row } from './tree-model';

interface TreeRowProps {
  readonly row: Row;
  readonly id: string;
  readonly active: boolean;
  /** What a language server found in this file, if one checked it. */
  readonly problems?: ProblemCount | undefined;
  readonly style: CSSProperties;
  readonly onActivate: () => void;
}

const INDENT_PX = 14;

/** One line of the tree: a file or folder, or a folder's state (loading, empty, error, cut short). */
export function TreeRow({ row, id, active, problems, style, onActivate }: TreeRowProps) {
  const t = useT();
  const indent = { ...style, paddingLeft: 8 + row.depth * INDENT_PX };
  if (row.kind === 'status') {
    return (
      <div className={`tree-row tree-status tree-status-${row.status}`} style={indent} role="none">
        {t(`workspace.status.${row.status}`, { detail: row.detail })}
      </div>
    );
  }
  const { entry } = row;
  const isDir = entry.type === 'directory';
  const classes = ['tree-row', active ? 'tree-row-active' : '', entry.ignored ? 'tree-row-ignored' : ''].join(' ');
  return (
    <div
      id={id}
      className={classes}
      style={indent}
      role="treeitem"
      aria-level={row.depth + 1}
      aria-selected={active}
      aria-expanded={isDir ? row.expanded : undefined}
      data-path={entry.path}
      title={entry.path}
      onClick={onActivate}
    >
      <span className="tree-twisty" aria-hidden="true">
        {isDir ? (row.expanded ? '▾' : '▸') : ''}
      </span>
      <span className="tree-name">{entry.name}</span>
      {entry.persona && (
        <span className="tree-mark" title={t('workspace.personaEntry')}>
          <span aria-hidden="true">⌂</span>
          <span className="visually-hidden">{t('workspace.personaEntry')}</span>
        </span>
      )}
      {entry.link && (
        <span className="tree-mark" title={t('workspace.link')}>
          <span aria-hidden="true">↪</span>
          <span className="visually-hidden">{t('workspace.link')}</span>
        </span>
      )}
      {entry.ignored && <span className="visually-hidden">{t('workspace.ignoredEntry')}</span>}
      <ProblemCounts count={problems} />
    </div>
  );
}
