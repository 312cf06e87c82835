import { useState } from 'react';
import type { BackupLimits } from '../../../shared/settings';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { settingsActions, useSettingsStore } from './settings-store';

type LimitName = keyof BackupLimits;
const limitNames: readonly LimitName[] = ['maxItems', 'maxSizeMB', 'maxAgeDays'];
const ranges: Record<LimitName, { min: number; max: number }> = {
  maxItems: { min: 10, max: 100_000 },
  maxSizeMB: { min: 10, max: 1_000_000 },
  maxAgeDays: { min: 1, max: 3650 },
};

/** One backup limit: saved on blur or Enter when it is a whole number in range; otherwise says why. */
function LimitField({ name, value }: { readonly name: LimitName; readonly value: number }) {
  const t = useT();
  const [text, setText] = useState(String(value));
  const [invalid, setInvalid] = useState(false);
  const { min, max } = ranges[name];
  const commit = () => {
    const next = Number(text);
    setInvalid(!Number.isInteger(next) || next < min || next > max);
    if (Number.isInteger(next) && next >= min && next <= max && next !== value)
      void settingsActions.update(familiar, { safety: { backups: { [name]: next } } });
  };
  return (
    <label className="cap-field">
      <span>{t(`settings.backups.${name}`)}</span>
      <input
        className="input"
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        value={text}
        aria-invalid={invalid}
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
        }}
      />
      {invalid && (
        <span className="form-error" role="alert">
          {t('persona.capRange', { min, max })}
        </span>
      )}
    </label>
  );
}

/** The sandbox's two user-facing switches: hard-linked files, and how many backups are kept. */
export function SafetySection() {
  const t = useT();
  const safety = useSettingsStore((state) => state.settings?.safety);
  if (safety === undefined) return null;
  return (
    <section className="settings-section" aria-labelledby="settings-safety">
      <h3 id="settings-safety">{t('settings.safety')}</h3>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={safety.hardLinks === 'allow'}
          onChange={(event) =>
            void settingsActions.update(familiar, { safety: { hardLinks: event.target.checked ? 'allow' : 'refuse' } })
          }
        />
        {t('settings.hardLinks')}
      </label>
      <p className="muted">{t('settings.hardLinksExplain')}</p>
      <fieldset className="cap-fields">
        <legend>{t('settings.backups')}</legend>
        {limitNames.map((name) => (
          <LimitField key={name} name={name} value={safety.backups[name]} />
        ))}
      </fieldset>
      <p className="muted">{t('settings.backupsExplain')}</p>
    </section>
  );
}
