import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { settingsActions, useSettingsStore } from './settings-store';

/** The same setting as the header switch, explained: it is remembered and applies to every new turn. */
export function MemorySection() {
  const t = useT();
  const enabled = useSettingsStore((state) => state.settings?.memory.enabled);
  if (enabled === undefined) return null;
  return (
    <section className="settings-section" aria-labelledby="settings-memory">
      <h3 id="settings-memory">{t('settings.memory')}</h3>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={enabled}
          onChange={(event) => void settingsActions.update(familiar, { memory: { enabled: event.target.checked } })}
        />
        {t('settings.memoryDefault')}
      </label>
      <p className="muted">{t('settings.memoryExplain')}</p>
    </section>
  );
}
