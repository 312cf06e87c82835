import { languageSchema, themeSchema } from '../../../shared/settings';
import { useT } from '../../i18n/i18n';
import { useSettingsStore } from './settings-store';
import { SettingSelect, SettingsSection } from './SettingsSection';

/** Theme and language apply at once (useAppearance) and are kept in settings.json. */
export function AppearanceSection() {
  const t = useT();
  const ui = useSettingsStore((state) => state.settings?.ui);
  if (ui === undefined) return null;
  return (
    <SettingsSection id="settings-appearance" title={t('settings.appearance')}>
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
    </SettingsSection>
  );
}
