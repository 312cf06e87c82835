import { useT } from '../../i18n/i18n';
import { LanguageServersPanel } from './LanguageServersPanel';
import { useSettingsStore } from './settings-store';
import { SettingSwitch } from './SettingSwitch';
import { SettingsSection } from './SettingsSection';
import { UserServersEditor } from './UserServersEditor';

/**
 * Language servers: whether write_file / edit_file results carry the problems a change introduced,
 * the servers the user added, and the state of each server with its Restart button; and whether
 * search_in_code keeps its trigram index of the workspace.
 */
export function CodeSection() {
  const t = useT();
  const code = useSettingsStore((state) => state.settings?.code);
  if (code === undefined) return null;
  return (
    <SettingsSection id="settings-code" title={t('settings.code')}>
      <SettingSwitch part="code" field="diagnosticsAfterEdits" />
      <SettingSwitch part="search" field="index" />
      {/* Saved rows come back through settings.changed: the editor starts again from them. */}
      <UserServersEditor key={JSON.stringify(code.servers)} servers={code.servers} />
      <LanguageServersPanel />
    </SettingsSection>
  );
}
