import { useEffect, useMemo, useState } from 'react';
import { Button } from '../../app/Button';
import { FormError } from '../../app/FormError';
import { policyOperations } from '../../../shared/policy';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { PolicyRuleRow } from './PolicyRuleRow';
import { draftProblems, policyActions, selectDirty, usePolicyStore } from './policy-store';
import { SettingsSection } from './SettingsSection';
import { useStoreFields } from '../../app/use-store-fields';

/** The permission table: first matching row that decides an operation wins; main validates on save. */
export function PolicyEditor() {
  const t = useT();
  const { draft, loadError, saveError, busy, savedNotice } = useStoreFields(
    ['draft', 'loadError', 'saveError', 'busy', 'savedNotice'],
    usePolicyStore,
  );
  const dirty = usePolicyStore(selectDirty);
  const problems = useMemo(() => draftProblems(draft), [draft]);
  const [confirmingReset, setConfirmingReset] = useState(false);

  useEffect(() => {
    void policyActions.load(familiar);
  }, []);

  return (
    <SettingsSection id="settings-policy" title={t('policy.title')}>
      <p className="muted">{t('policy.explain')}</p>
      <FormError
        testId="policy-load-error"
        message={loadError !== null && t('policy.loadError', { message: loadError })}
      />
      <div className="policy-table-wrap">
        <table className="policy-table">
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">{t('policy.order')}</span>
              </th>
              <th scope="col">{t('policy.pattern')}</th>
              {policyOperations.map((operation) => (
                <th scope="col" key={operation}>
                  {t(`operation.${operation}`)}
                </th>
              ))}
              <th scope="col">{t('policy.memory')}</th>
              <th scope="col">{t('policy.note')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('policy.removeColumn')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {draft.map((rule, index) => (
              <PolicyRuleRow key={rule.key} rule={rule} index={index} count={draft.length} problems={problems} />
            ))}
          </tbody>
        </table>
      </div>
      <FormError testId="policy-error" message={saveError} />
      {savedNotice && (
        <p className="form-ok" role="status">
          {t('policy.saved')}
        </p>
      )}
      <div className="section-actions">
        <Button onClick={policyActions.addRule}>{t('policy.add')}</Button>
        <span className="spacer" />
        {confirmingReset ? (
          <>
            <span>{t('policy.resetConfirmQuestion')}</span>
            <Button onClick={() => setConfirmingReset(false)}>{t('policy.cancel')}</Button>
            <Button
              look="danger"
              disabled={busy}
              onClick={() => {
                setConfirmingReset(false);
                void policyActions.reset(familiar);
              }}
            >
              {t('policy.resetConfirm')}
            </Button>
          </>
        ) : (
          <Button onClick={() => setConfirmingReset(true)} disabled={busy}>
            {t('policy.reset')}
          </Button>
        )}
        <Button onClick={policyActions.discard} disabled={!dirty || busy}>
          {t('policy.discard')}
        </Button>
        <Button look="primary" onClick={() => void policyActions.save(familiar)} disabled={!dirty || busy}>
          {t('policy.save')}
        </Button>
      </div>
    </SettingsSection>
  );
}
