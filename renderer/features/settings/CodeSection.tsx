import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { settingsActions, useSettingsStore } from './settings-store';

/** Language servers: whether write_file / edit_file results carry the problems a change introduced. */
export function CodeSection() {
  const t = useT();
  const code = useSettingsStore((state) => state.settings?.code);
  if (code === undefined) return null;
  return (
    <section className="settings-section" aria-labelledby="settings-code">
      <h3 id="settings-code">{t('settings.code')}</h3>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={code.diagnosticsAfterEdits}
          onChange={(event) =>
            void settingsActions.update(familiar, { code: { diagnosticsAfterEdits: event.target.checked } })
          }
        />
        {t('settings.diagnosticsAfterEdits')}
      </label>
      <p className="muted">{t('settings.diagnosticsAfterEditsExplain')}</p>
    </section>
  );
}
