import { useEffect } from 'react';
import { FormError } from '../../app/FormError';
import type { LanguageServerRow } from '../../../shared/ipc/language-servers';
import { familiar } from '../../ipc/familiar';
import { useAnswer } from '../../ipc/use-answer';
import { useT } from '../../i18n/i18n';
import type { MessageKey } from '../../i18n/en';

const stateKeys: Record<LanguageServerRow['state'], MessageKey> = {
  running: 'settings.serverRunning',
  starting: 'settings.serverStarting',
  stopped: 'settings.serverStopped',
  crashed: 'settings.serverCrashed',
  not_installed: 'settings.serverNotInstalled',
};

/**
 * The language servers of the open workspace: state, the last lines each wrote to stderr, and a
 * Restart button. Fed by languageServers.list and kept current by languageServers.changed.
 */
export function LanguageServersPanel() {
  const t = useT();
  const listed = useAnswer(() => familiar.invoke('languageServers.list', {}), []);
  const { setValue, setError } = listed;
  useEffect(() => familiar.on('languageServers.changed', setValue), [setValue]);
  const servers = listed.value?.servers ?? null;
  const restart = async (id: string) => {
    setError(null);
    const answer = await familiar.invoke('languageServers.restart', { id });
    if (answer.ok) setValue(answer.value);
    else setError(answer.error.message);
  };
  return (
    <div className="field-column" role="group" aria-labelledby="settings-language-servers">
      <h4 id="settings-language-servers">{t('settings.languageServers')}</h4>
      {servers === null ? null : (
        <ul className="language-servers">
          {servers.map((server) => (
            <li key={server.id} className="language-server">
              <div className="field-row">
                <strong>{server.id}</strong>
                <span className={`server-state server-state-${server.state}`}>{t(stateKeys[server.state])}</span>
                {server.restarts > 0 && (
                  <span className="muted">{t('settings.serverRestarts', { n: server.restarts })}</span>
                )}
                <button
                  type="button"
                  className="button button-small"
                  disabled={server.state === 'not_installed' || server.state === 'starting'}
                  aria-label={t('settings.serverRestart', { id: server.id })}
                  onClick={() => void restart(server.id)}
                >
                  {t('settings.serverRestartShort')}
                </button>
              </div>
              {server.log.length > 0 && (
                <details>
                  <summary>{t('settings.serverLog', { id: server.id })}</summary>
                  <pre className="server-log">{server.log.join('\n')}</pre>
                </details>
              )}
            </li>
          ))}
        </ul>
      )}
      <FormError inline message={listed.error} />
    </div>
  );
}
