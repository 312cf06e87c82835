import { useT } from '../../i18n/i18n';

/** Reasons to look twice (e.g. file content read this turn may be steering the change): first and loud. */
export function ApprovalWarnings({ warnings }: { readonly warnings: readonly string[] }) {
  const t = useT();
  if (warnings.length === 0) return null;
  return (
    <section className="approval-warnings" role="alert" aria-label={t('approval.warnings')}>
      <strong>{t('approval.warnings')}</strong>
      <ul>
        {warnings.map((warning) => (
          <li key={warning}>{warning}</li>
        ))}
      </ul>
    </section>
  );
}
