import { useT } from '../../i18n/i18n';
import { LanguageServersPanel } from './LanguageServersPanel';
import { useSettingsStore } from './settings-store';
import { SettingCheckbox, SettingsSection } from './SettingsSection';
import { UserServersEditor } from './UserServersEditor';

/**
 * Language servers: whether write_file / edit_file results carry the problems a change introduced,
 * the servers the user added, and the state of each server with its Restart button; and whether
 * search_in_code keeps its trigram index of the workspace.
 */
export function CodeSection() {
  const t = useT();
  const code = useSettingsStore((state) => state.settings?.code);
  const search = useSettingsStore((state) => state.settings?.search);
  if (code === undefined || search === undefined) return null;
  return (
    <SettingsSection id="settings-code" title={t('settings.code')}>
      <SettingCheckbox
        checked={code.diagnosticsAfterEdits}
        patch={(checked) => ({ code: { diagnosticsAfterEdits: checked } })}
        explanation={t('settings.diagnosticsAfterEditsExplain')}
      >
        {t('settings.diagnosticsAfterEdits')}
      </SettingCheckbox>
      <SettingCheckbox
        checked={search.index}
        patch={(checked) => ({ search: { index: checked } })}
        explanation={t('settings.searchIndexExplain')}
      >
        {t('settings.searchIndex')}
      </SettingCheckbox>
      {/* Saved rows come back through settings.changed: the editor starts again from them. */}
      <UserServersEditor key={JSON.stringify(code.servers)} servers={code.servers} />
      <LanguageServersPanel />
    </SettingsSection>
  );
}
