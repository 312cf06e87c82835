import { useT } from '../../i18n/i18n';

/**
 * The place for provider, model, base URL and API key. It is built against the LLM-loop contract
 * (calls for secrets that are never read back), which has not landed yet: until then it says so
 * instead of offering controls that would not work.
 */
export function ProviderSection() {
  const t = useT();
  return (
    <section className="settings-section settings-section-pending" aria-labelledby="settings-provider">
      <h3 id="settings-provider">{t('settings.provider')}</h3>
      <p className="muted">{t('settings.providerPending')}</p>
    </section>
  );
}
