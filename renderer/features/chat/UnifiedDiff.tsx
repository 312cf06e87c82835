import { memo } from 'react';
import { useT } from '../../i18n/i18n';

/** A diff this long is cut: the card is a glance, the file itself is one click away in the tree. */
const MAX_DIFF_LINES = 1_500;

type DiffLineKind = 'add' | 'del' | 'hunk' | 'meta' | 'context';

function kindOf(line: string): DiffLineKind {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('Index:') || line.startsWith('===')) {
    return 'meta';
  }
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return 'context';
}

/** Counts added and removed lines of a unified diff (headers excluded). */
export function diffStats(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    const kind = kindOf(line);
    if (kind === 'add') added++;
    else if (kind === 'del') removed++;
  }
  return { added, removed };
}

/** A unified diff with added and removed lines marked (by colour and by their +/− prefix). */
export const UnifiedDiff = memo(function UnifiedDiff({ diff }: { readonly diff: string }) {
  const t = useT();
  const lines = diff.replace(/\n$/, '').split('\n');
  const shown = lines.slice(0, MAX_DIFF_LINES);
  return (
    <pre className="unified-diff" tabIndex={0} aria-label={t('tool.diff')}>
      {shown.map((line, index) => (
        <span key={index} className={`diff-line diff-${kindOf(line)}`}>
          {line}
          {'\n'}
        </span>
      ))}
      {lines.length > shown.length && (
        <span className="diff-line diff-meta">{t('tool.diffCut', { count: lines.length - shown.length })}</span>
      )}
    </pre>
  );
});
