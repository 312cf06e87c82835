import { useT } from '../../i18n/i18n';
import { useSettingsStore } from './settings-store';
import { SettingCheckbox, SettingSelect, SettingsSection } from './SettingsSection';

const uploadSizes = [1, 2, 5, 10, 15, 20] as const;

/** What dropped files may be: their size cap and whether only text is taken (the default). */
export function UploadsSection() {
  const t = useT();
  const transfers = useSettingsStore((state) => state.settings?.transfers);
  if (transfers === undefined) return null;
  return (
    <SettingsSection id="settings-uploads" title={t('settings.uploads')}>
      <SettingSelect
        id="settings-upload-max"
        label={t('settings.uploadMax')}
        value={transfers.maxUploadMB}
        options={uploadSizes}
        optionLabel={(size) => `${size} MB`}
        patch={(maxUploadMB) => ({ transfers: { maxUploadMB } })}
      />
      <SettingCheckbox checked={transfers.allowNonText} patch={(checked) => ({ transfers: { allowNonText: checked } })}>
        {t('settings.uploadNonText')}
      </SettingCheckbox>
      <p className="muted">{t('settings.uploadsExplain')}</p>
    </SettingsSection>
  );
}
