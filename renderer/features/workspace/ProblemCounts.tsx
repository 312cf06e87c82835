import { useT } from '../../i18n/i18n';
import { totalProblems } from './problem-counts';
import type { ProblemCount } from './problem-counts';
import { useWorkspaceStore } from './workspace-store';

/**
 * Errors and warnings as two small figures (the marks are decoration; screen readers hear
 * "2 errors, 1 warning"). Nothing at all without problems.
 */
export function ProblemCounts({ count }: { readonly count: ProblemCount | undefined }) {
  const t = useT();
  if (count === undefined || (count.errors === 0 && count.warnings === 0)) return null;
  const words = [
    count.errors > 0 ? t('problems.errors', { count: count.errors }) : '',
    count.warnings > 0 ? t('problems.warnings', { count: count.warnings }) : '',
  ].filter((word) => word !== '');
  return (
    <span className="problem-counts" title={words.join(', ')} data-errors={count.errors} data-warnings={count.warnings}>
      {count.errors > 0 && (
        <span className="problem-errors" aria-hidden="true">
          ✕{count.errors}
        </span>
      )}
      {count.warnings > 0 && (
        <span className="problem-warnings" aria-hidden="true">
          ⚠{count.warnings}
        </span>
      )}
      <span className="visually-hidden">{words.join(', ')}</span>
    </span>
  );
}

/** The header's total over every file a language server checked; absent when there is nothing. */
export function ProblemsTotal() {
  const t = useT();
  const problems = useWorkspaceStore((state) => state.problems);
  const total = totalProblems(problems);
  if (total.errors === 0 && total.warnings === 0) return null;
  return (
    <span className="problems-total" data-testid="problems-total">
      <span className="visually-hidden">{t('problems.total')} </span>
      <ProblemCounts count={total} />
    </span>
  );
}
