import { SettingCheckbox, SettingSelect, SettingsPartSection } from './SettingsSection';

const uploadSizes = [1, 2, 5, 10, 15, 20] as const;

/** What dropped files may be: their size cap and whether only text is taken (the default). */
export function UploadsSection() {
  return (
    <SettingsPartSection part="transfers" id="settings-uploads" titleKey="settings.uploads">
      {(transfers, t) => (
        <>
          <SettingSelect
            id="settings-upload-max"
            label={t('settings.uploadMax')}
            value={transfers.maxUploadMB}
            options={uploadSizes}
            optionLabel={(size) => `${size} MB`}
            patch={(maxUploadMB) => ({ transfers: { maxUploadMB } })}
          />
          <SettingCheckbox
            checked={transfers.allowNonText}
            patch={(checked) => ({ transfers: { allowNonText: checked } })}
          >
            {t('settings.uploadNonText')}
          </SettingCheckbox>
          {/* About the whole section, not the switch above: a note, not the switch's description. */}
          <p className="muted">{t('settings.uploadsExplain')}</p>
        </>
      )}
    </SettingsPartSection>
  );
}
