import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { settingsActions, useSettingsStore } from './settings-store';

const uploadSizes = [1, 2, 5, 10, 15, 20] as const;

/** What dropped files may be: their size cap and whether only text is taken (the default). */
export function UploadsSection() {
  const t = useT();
  const transfers = useSettingsStore((state) => state.settings?.transfers);
  if (transfers === undefined) return null;
  return (
    <section className="settings-section" aria-labelledby="settings-uploads">
      <h3 id="settings-uploads">{t('settings.uploads')}</h3>
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
      <label className="checkbox">
        <input
          type="checkbox"
          checked={transfers.allowNonText}
          onChange={(event) =>
            void settingsActions.update(familiar, { transfers: { allowNonText: event.target.checked } })
          }
        />
        {t('settings.uploadNonText')}
      </label>
      <p className="muted">{t('settings.uploadsExplain')}</p>
    </section>
  );
}
