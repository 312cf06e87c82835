import { languageSchema, themeSchema } from '../../../shared/settings';
import { SettingChoice } from './SettingChoice';
import { SettingsPartSection } from './SettingsSection';

/** Theme and language apply at once (useAppearance) and are kept in settings.json. */
export function AppearanceSection() {
  return (
    <SettingsPartSection part="ui" id="settings-appearance" titleKey="settings.appearance">
      <SettingChoice part="ui" field="theme" options={themeSchema.options} />
      <SettingChoice part="ui" field="language" options={languageSchema.options} />
    </SettingsPartSection>
  );
}
