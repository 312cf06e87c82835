import { useEffect } from 'react';
import { FormError } from '../../app/FormError';
import { useStoreFields } from '../../app/use-store-fields';
import { familiar } from '../../ipc/familiar';
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
    <div className="form-warning confinement-off" role="note" data-testid="confinement-status">
      <p>
        <strong>{t('confinement.off')}</strong>
      </p>
      <p>{t('confinement.reason', { reason: mode.reason })}</p>
      <p>{t('confinement.fix', { fix: mode.fix })}</p>
    </div>
  );
}
