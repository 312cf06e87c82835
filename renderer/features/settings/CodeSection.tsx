import { useT } from '../../i18n/i18n';
import { useSettingsStore } from './settings-store';
import { SettingCheckbox, SettingsSection } from './SettingsSection';

/** Language servers: whether write_file / edit_file results carry the problems a change introduced. */
export function CodeSection() {
  const t = useT();
  const code = useSettingsStore((state) => state.settings?.code);
  if (code === undefined) return null;
  return (
    <SettingsSection id="settings-code" title={t('settings.code')}>
      <SettingCheckbox
        checked={code.diagnosticsAfterEdits}
        patch={(checked) => ({ code: { diagnosticsAfterEdits: checked } })}
      >
        {t('settings.diagnosticsAfterEdits')}
      </SettingCheckbox>
      <p className="muted">{t('settings.diagnosticsAfterEditsExplain')}</p>
    </SettingsSection>
  );
}
