import { SettingChoice } from './SettingChoice';
import { SettingSwitch } from './SettingSwitch';
import { SettingsPartSection } from './SettingsSection';

const uploadSizes = [1, 2, 5, 10, 15, 20] as const;
const megabytes = (size: number) => `${size} MB`;

/** What dropped files may be: their size cap and whether only text is taken (the default). */
export function UploadsSection() {
  return (
    <SettingsPartSection part="transfers" id="settings-uploads" titleKey="settings.uploads">
      {(_transfers, t) => (
        <>
          <SettingChoice part="transfers" field="maxUploadMB" options={uploadSizes} optionLabel={megabytes} />
          <SettingSwitch part="transfers" field="allowNonText" />
          {/* About the whole section, not the switch above: a note, not the switch's description. */}
          <p className="muted">{t('settings.uploadsExplain')}</p>
        </>
      )}
    </SettingsPartSection>
  );
}
