import { useRef } from 'react';
import type { KeyboardEvent } from 'react';
import type { ApprovalFile } from '../../../shared/ipc/approvals';
import { useT } from '../../i18n/i18n';

interface ApprovalFileListProps {
  readonly files: readonly ApprovalFile[];
  readonly selected: number;
  readonly onSelect: (index: number) => void;
  /** The id of the panel the tabs control (the diff of the selected file). */
  readonly panelId: string;
}

export const fileTabId = (index: number) => `approval-file-${index}`;

/**
 * The files of a multi-file change as a vertical tab list: one tab stop (the selected file), arrow
 * keys, Home and End move between files and show each one's diff; Tab goes on to the diff.
 */
export function ApprovalFileList({ files, selected, onSelect, panelId }: ApprovalFileListProps) {
  const t = useT();
  const list = useRef<HTMLDivElement>(null);

  const select = (index: number) => {
    const next = Math.min(Math.max(index, 0), files.length - 1);
    onSelect(next);
    list.current?.querySelector<HTMLElement>(`#${fileTabId(next)}`)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = {
      ArrowDown: selected + 1,
      ArrowRight: selected + 1,
      ArrowUp: selected - 1,
      ArrowLeft: selected - 1,
      Home: 0,
      End: files.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    select(target);
  };

  return (
    <div
      ref={list}
      className="approval-file-list"
      role="tablist"
      aria-orientation="vertical"
      aria-label={t('approval.fileList', { count: files.length })}
      onKeyDown={onKeyDown}
    >
      {files.map((file, index) => (
        <button
          key={file.path}
          id={fileTabId(index)}
          type="button"
          role="tab"
          className="approval-file"
          aria-selected={index === selected}
          aria-controls={panelId}
          tabIndex={index === selected ? 0 : -1}
          onClick={() => select(index)}
          data-path={file.path}
        >
          <span className="approval-file-path">{file.path}</span>{' '}
          {file.changes !== undefined && (
            <span className="approval-file-changes">{t('approval.fileChanges', { count: file.changes })}</span>
          )}
        </button>
      ))}
    </div>
  );
}
