import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import type { WebSearchStatus } from '../../../shared/ipc/web-search';
import { webSearchServices } from '../../../shared/settings';
import type { WebSearchServiceName } from '../../../shared/settings';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { LabelledField } from './LabelledField';

const needsKey = (service: WebSearchServiceName): service is 'brave' | 'tavily' =>
  service === 'brave' || service === 'tavily';

/**
 * web_search's service (settings web.search): none, a SearXNG by its URL, or Brave Search / Tavily
 * by a key. The key goes to the secret store through webSearch.save and never comes back.
 */
export function WebSearchFields() {
  const t = useT();
  const [status, setStatus] = useState<WebSearchStatus | undefined>();
  const [service, setService] = useState<WebSearchServiceName>('none');
  const [url, setUrl] = useState('');
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    void familiar.invoke('webSearch.status', {}).then((result) => {
      if (!result.ok) return;
      setStatus(result.value);
      setService(result.value.search.service);
      setUrl(result.value.search.searxngUrl ?? '');
    });
  }, []);
  if (status === undefined) return null;

  const save = async (event: FormEvent, removeKey = false) => {
    event.preventDefault();
    setError(undefined);
    setSaved(false);
    const searxngUrl = url.trim() === '' ? null : url.trim();
    const apiKey = needsKey(service) ? (removeKey ? null : key.trim() === '' ? undefined : key.trim()) : undefined;
    const result = await familiar.invoke('webSearch.save', {
      search: { service, searxngUrl },
      ...(apiKey === undefined ? {} : { apiKey }),
    });
    if (!result.ok) {
      setError(result.error.code === 'invalid_payload' ? t('settings.webSearch.invalid') : result.error.message);
      return;
    }
    setStatus(result.value);
    setKey('');
    setSaved(true);
  };
  const keySaved = needsKey(service) && status.hasKey[service];

  return (
    <form
      className="web-search-fields"
      onSubmit={(event) => void save(event)}
      aria-describedby="settings-web-search-explain"
    >
      <h4>{t('settings.webSearch')}</h4>
      <LabelledField id="settings-web-search-service" label={t('settings.webSearch.service')} layout="row">
        <select
          id="settings-web-search-service"
          value={service}
          onChange={(event) => {
            setService(event.target.value as WebSearchServiceName);
            setSaved(false);
          }}
        >
          {webSearchServices.map((option) => (
            <option key={option} value={option}>
              {t(`settings.webSearch.service.${option}`)}
            </option>
          ))}
        </select>
      </LabelledField>
      {service === 'searxng' && (
        <LabelledField id="settings-web-search-url" label={t('settings.webSearch.searxngUrl')} layout="column">
          <input
            id="settings-web-search-url"
            type="url"
            required
            placeholder="http://127.0.0.1:8888"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
          />
        </LabelledField>
      )}
      {needsKey(service) && (
        <LabelledField id="settings-web-search-key" label={t('settings.webSearch.apiKey')} layout="column">
          <input
            id="settings-web-search-key"
            type="password"
            autoComplete="off"
            required={!keySaved}
            placeholder={keySaved ? '••••••••' : ''}
            value={key}
            onChange={(event) => setKey(event.target.value)}
          />
          <p className="muted">{keySaved ? t('provider.keySaved') : t('provider.keyNeeded')}</p>
          {status.keyStorage === 'plaintext-file' && (
            <p className="warning-text" role="note">
              {t('provider.keyPlaintextWarning')}
            </p>
          )}
          {keySaved && (
            <button type="button" onClick={(event) => void save(event, true)}>
              {t('provider.removeKey')}
            </button>
          )}
        </LabelledField>
      )}
      <button type="submit">{t('settings.webSearch.save')}</button>
      {error !== undefined && <p role="alert">{error}</p>}
      <p className="muted" role="status">
        {saved || status.available
          ? t(status.available ? 'settings.webSearch.offered' : 'settings.webSearch.notOffered')
          : ''}
      </p>
      <p className="muted" id="settings-web-search-explain">
        {t('settings.webSearch.explain')}
      </p>
    </form>
  );
}
