import { languageSchema, themeSchema } from '../../../shared/settings';
import { SettingSelect, SettingsPartSection } from './SettingsSection';

/** Theme and language apply at once (useAppearance) and are kept in settings.json. */
export function AppearanceSection() {
  return (
    <SettingsPartSection part="ui" id="settings-appearance" titleKey="settings.appearance">
      {(ui, t) => (
        <>
          <SettingSelect
            id="settings-theme"
            label={t('settings.theme')}
            value={ui.theme}
            options={themeSchema.options}
            optionLabel={(theme) => t(`settings.theme.${theme}`)}
            patch={(theme) => ({ ui: { theme } })}
          />
          <SettingSelect
            id="settings-language"
            label={t('settings.language')}
            value={ui.language}
            options={languageSchema.options}
            optionLabel={(language) => t(`settings.language.${language}`)}
            patch={(language) => ({ ui: { language } })}
          />
        </>
      )}
    </SettingsPartSection>
  );
}
