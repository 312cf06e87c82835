import { webHostSchema } from '../../../shared/settings';
import { SettingList } from './SettingList';
import { SettingsPartSection } from './SettingsSection';
import { WebSearchFields } from './WebSearchFields';

/**
 * web_search's service (WebSearchFields), and web_fetch's allowed hosts (settings web.allowedHosts): read
 * without asking, and the only hosts that may lead to this computer or the local network. Add one by typing it, remove one by deleting it.
 */
export function WebSection() {
  return (
    <SettingsPartSection part="web" id="settings-web" titleKey="settings.web">
      {() => (
        <>
          <SettingList
            part="web"
            field="allowedHosts"
            schema={webHostSchema}
            placeholder="docs.python.org intranet.example:8080 127.0.0.1:5173"
            separated="words"
          />
          <WebSearchFields />
        </>
      )}
    </SettingsPartSection>
  );
}
