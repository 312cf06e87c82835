import { SettingSwitch } from './SettingSwitch';
import { SettingsPartSection } from './SettingsSection';

/** The same setting as the header switch, explained: it is remembered and applies to every new turn. */
export function MemorySection() {
  return (
    <SettingsPartSection part="memory" id="settings-memory" titleKey="settings.memory">
      <SettingSwitch part="memory" field="enabled" />
    </SettingsPartSection>
  );
}
