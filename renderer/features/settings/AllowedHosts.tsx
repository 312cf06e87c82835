import type { AllowedHost } from '../../../shared/settings';
import { useT } from '../../i18n/i18n';
import { familiar } from '../../ipc/familiar';
import { settingsActions } from './settings-store';

/**
 * The hosts a confined command may reach without asking (settings: commands.allowedHosts), added by
 * "always for this workspace" answers: each listed with where it applies, and revocable.
 */
export function AllowedHosts({ hosts }: { readonly hosts: readonly AllowedHost[] }) {
  const t = useT();
  const revoke = (index: number) =>
    void settingsActions.update(familiar, { commands: { allowedHosts: hosts.filter((_, at) => at !== index) } });
  return (
    <section aria-labelledby="settings-allowed-hosts">
      <h4 id="settings-allowed-hosts">{t('settings.allowedHosts')}</h4>
      {hosts.length === 0 ? (
        <p className="muted">{t('settings.allowedHostsNone')}</p>
      ) : (
        <ul aria-labelledby="settings-allowed-hosts" data-testid="allowed-hosts">
          {hosts.map((entry, index) => {
            const name = entry.port === undefined ? entry.host : `${entry.host}:${entry.port}`;
            return (
              <li key={`${name} ${entry.workspace ?? ''}`}>
                <code>{name}</code>{' '}
                <span className="muted">
                  {entry.workspace === null
                    ? t('settings.allowedHostsEverywhere')
                    : t('settings.allowedHostsIn', { workspace: entry.workspace })}
                </span>{' '}
                <button
                  type="button"
                  onClick={() => revoke(index)}
                  aria-label={t('settings.allowedHostsRevoke', { host: name })}
                >
                  {t('settings.allowedHostsRevokeButton')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
