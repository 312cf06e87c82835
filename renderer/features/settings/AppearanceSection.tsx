import { languageSchema, themeSchema } from '../../../shared/settings';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { settingsActions, useSettingsStore } from './settings-store';
import { SettingsSection } from './SettingsSection';

/** Theme and language apply at once (useAppearance) and are kept in settings.json. */
export function AppearanceSection() {
  const t = useT();
  const ui = useSettingsStore((state) => state.settings?.ui);
  if (ui === undefined) return null;
  return (
    <SettingsSection id="settings-appearance" title={t('settings.appearance')}>
      <div className="field-row">
        <label htmlFor="settings-theme">{t('settings.theme')}</label>
        <select
          id="settings-theme"
          className="select"
          value={ui.theme}
          onChange={(event) =>
            void settingsActions.update(familiar, { ui: { theme: themeSchema.parse(event.target.value) } })
          }
        >
          {themeSchema.options.map((theme) => (
            <option key={theme} value={theme}>
              {t(`settings.theme.${theme}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field-row">
        <label htmlFor="settings-language">{t('settings.language')}</label>
        <select
          id="settings-language"
          className="select"
          value={ui.language}
          onChange={(event) =>
            void settingsActions.update(familiar, { ui: { language: languageSchema.parse(event.target.value) } })
          }
        >
          {languageSchema.options.map((language) => (
            <option key={language} value={language}>
              {t(`settings.language.${language}`)}
            </option>
          ))}
        </select>
      </div>
    </SettingsSection>
  );
}
