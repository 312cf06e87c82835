import { useT } from '../../i18n/i18n';
import { useSettingsStore } from './settings-store';
import { SettingCheckbox, SettingsSection } from './SettingsSection';

/** The same setting as the header switch, explained: it is remembered and applies to every new turn. */
export function MemorySection() {
  const t = useT();
  const enabled = useSettingsStore((state) => state.settings?.memory.enabled);
  if (enabled === undefined) return null;
  return (
    <SettingsSection id="settings-memory" title={t('settings.memory')}>
      <SettingCheckbox checked={enabled} patch={(checked) => ({ memory: { enabled: checked } })}>
        {t('settings.memoryDefault')}
      </SettingCheckbox>
      <p className="muted">{t('settings.memoryExplain')}</p>
    </SettingsSection>
  );
}
