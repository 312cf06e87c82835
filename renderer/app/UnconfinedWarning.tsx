import { useT } from '../i18n/i18n';

/**
 * The one way programs running unconfined are announced: what holds no longer, why, and how to fix
 * it, as a note a screen reader reaches (Settings → Commands/Safety and the approval card).
 */
export function UnconfinedWarning({
  headline,
  reason,
  fix,
  className,
  testId,
}: {
  readonly headline: string;
  readonly reason: string | undefined;
  readonly fix: string | undefined;
  readonly className: string;
  readonly testId: string;
}) {
  const t = useT();
  return (
    <div className={`form-warning ${className}`} role="note" data-testid={testId}>
      <p>
        <strong>{headline}</strong>
      </p>
      {reason !== undefined && <p>{t('confinement.reason', { reason })}</p>}
      {fix !== undefined && <p>{t('confinement.fix', { fix })}</p>}
    </div>
  );
}
