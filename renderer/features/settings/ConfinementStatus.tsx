import { useEffect } from 'react';
import { FormError } from '../../app/FormError';
import { useStoreFields } from '../../app/use-store-fields';
import { familiar } from '../../ipc/familiar';
import { UnconfinedWarning } from '../../app/UnconfinedWarning';
import { useT } from '../../i18n/i18n';
import { confinementActions, useConfinementStore } from './confinement-store';

/**
 * Whether commands run confined by the operating system; when they do not, that first and loud, with
 * the reason and how to fix it. Loads and follows app.confinement while shown.
 */
export function ConfinementStatus() {
  const t = useT();
  const { confinement, error } = useStoreFields(['confinement', 'error'], useConfinementStore);
  useEffect(() => confinementActions.follow(familiar), []);
  if (confinement === null) return <FormError message={error?.message} />;
  const { mode } = confinement;
  if (mode.confined) {
    return (
      <p className="confinement-on" data-testid="confinement-status">
        {t('confinement.on', { tool: mode.tool })}
      </p>
    );
  }
  return (
    <UnconfinedWarning
      headline={t('confinement.off')}
      reason={mode.reason}
      fix={mode.fix}
      className="confinement-off"
      testId="confinement-status"
    />
  );
}
