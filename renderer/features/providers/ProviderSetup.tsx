import { useT } from '../../i18n/i18n';
import { ProviderForm } from './ProviderForm';

/** The first-run welcome: shown in place of the chat until a model provider is saved. */
export function ProviderSetup() {
  const t = useT();
  return (
    <section className="provider-setup" aria-labelledby="provider-setup-title">
      <h2 id="provider-setup-title">{t('provider.setupTitle')}</h2>
      <p className="muted">{t('provider.setupIntro')}</p>
      <ProviderForm />
    </section>
  );
}
