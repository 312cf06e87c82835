import { webHostSchema } from '../../../shared/settings';
import { familiar } from '../../ipc/familiar';
import { NameListField } from './NameListField';
import { settingsActions } from './settings-store';
import { SettingsPartSection } from './SettingsSection';
import { WebSearchFields } from './WebSearchFields';

/**
 * web_search's service (WebSearchFields), and web_fetch's allowed hosts (settings web.allowedHosts): read without asking, and the only hosts
 * that may lead to this computer or the local network. Add one by typing it, remove one by deleting it.
 */
export function WebSection() {
  return (
    <SettingsPartSection part="web" id="settings-web" titleKey="settings.web">
      {(web, t) => (
        <>
          <NameListField
            key={`web:${web.allowedHosts.join(' ')}`}
            id="settings-web-hosts"
            label={t('settings.web.allowedHosts')}
            placeholder="docs.python.org intranet.example:8080 127.0.0.1:5173"
            value={web.allowedHosts}
            separators={/[\s,;]+/}
            joiner=" "
            schema={webHostSchema}
            invalidMessage={(entries) => t('settings.web.allowedHostsInvalid', { entries })}
            describedBy="settings-web-hosts-explain"
            onSave={(allowedHosts) => void settingsActions.update(familiar, { web: { allowedHosts } })}
          />
          <p className="muted" id="settings-web-hosts-explain">
            {t('settings.web.allowedHostsExplain')}
          </p>
          <WebSearchFields />
        </>
      )}
    </SettingsPartSection>
  );
}
