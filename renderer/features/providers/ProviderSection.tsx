import { useEffect } from 'react';
import { useT } from '../../i18n/i18n';
import { providersActions } from './provider-actions';
import { ProviderForm } from './ProviderForm';
import { useProvidersStore } from './providers-store';
import { useStoreFields } from '../../app/use-store-fields';

/**
 * The provider settings as a section of the Settings dialog (the settings feature mounts it). It
 * loads the status itself, so it works wherever it is placed.
 */
export function ProviderSection() {
  const t = useT();
  const { status, loadError } = useStoreFields(['status', 'loadError'], useProvidersStore);

  useEffect(() => {
    void providersActions.load();
  }, []);

  return (
    <section className="settings-section provider-section" aria-labelledby="provider-section-title">
      <h3 id="provider-section-title">{t('provider.sectionTitle')}</h3>
      {loadError !== null && (
        <p className="error-text" role="alert">
          {loadError.message}
        </p>
      )}
      {status !== null && <ProviderForm />}
    </section>
  );
}
