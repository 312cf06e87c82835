import { SettingCheckbox, SettingsPartSection } from './SettingsSection';

/** The same setting as the header switch, explained: it is remembered and applies to every new turn. */
export function MemorySection() {
  return (
    <SettingsPartSection part="memory" id="settings-memory" titleKey="settings.memory">
      {(memory, t) => (
        <>
          <SettingCheckbox
            checked={memory.enabled}
            patch={(checked) => ({ memory: { enabled: checked } })}
            explanation={t('settings.memoryExplain')}
          >
            {t('settings.memoryDefault')}
          </SettingCheckbox>
        </>
      )}
    </SettingsPartSection>
  );
}
