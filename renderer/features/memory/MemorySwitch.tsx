import { useState } from 'react';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { settingsActions, useSettingsStore } from '../settings/settings-store';

/** The header's memory switch: settings.memory.enabled, which main turns into the tool list. */
export function MemorySwitch() {
  const t = useT();
  const enabled = useSettingsStore((state) => state.settings?.memory.enabled);
  const [saving, setSaving] = useState(false);
  const flip = async (next: boolean) => {
    setSaving(true);
    await settingsActions.update(familiar, { memory: { enabled: next } });
    setSaving(false);
  };
  return (
    <>
      <span id="memory-switch-hint" className="visually-hidden">
        {t('memory.hint')}
      </span>
      <label className="memory-switch" title={t('memory.hint')}>
        <input
          type="checkbox"
          role="switch"
          checked={enabled === true}
          disabled={enabled === undefined || saving}
          onChange={(event) => void flip(event.target.checked)}
          aria-describedby="memory-switch-hint"
        />
        <span className="switch-track" aria-hidden="true" />
        <span>{t('header.memory')}</span>
      </label>
    </>
  );
}
