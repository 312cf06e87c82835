import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { settingsActions, useSettingsStore } from './settings-store';
import { SettingCheckbox, SettingsSection } from './SettingsSection';

const uploadSizes = [1, 2, 5, 10, 15, 20] as const;

/** What dropped files may be: their size cap and whether only text is taken (the default). */
export function UploadsSection() {
  const t = useT();
  const transfers = useSettingsStore((state) => state.settings?.transfers);
  if (transfers === undefined) return null;
  return (
    <SettingsSection id="settings-uploads" title={t('settings.uploads')}>
      <div className="field-row">
        <label htmlFor="settings-upload-max">{t('settings.uploadMax')}</label>
        <select
          id="settings-upload-max"
          className="select"
          value={transfers.maxUploadMB}
          onChange={(event) =>
            void settingsActions.update(familiar, { transfers: { maxUploadMB: Number(event.target.value) } })
          }
        >
          {uploadSizes.map((size) => (
            <option key={size} value={size}>
              {size} MB
            </option>
          ))}
        </select>
      </div>
      <SettingCheckbox checked={transfers.allowNonText} patch={(checked) => ({ transfers: { allowNonText: checked } })}>
        {t('settings.uploadNonText')}
      </SettingCheckbox>
      <p className="muted">{t('settings.uploadsExplain')}</p>
    </SettingsSection>
  );
}
