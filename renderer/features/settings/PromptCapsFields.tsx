import { useState } from 'react';
import type { Settings } from '../../../shared/settings';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { settingsActions, useSettingsStore } from './settings-store';

type CapName = keyof Settings['prompt'];
const capNames: readonly CapName[] = ['perFile', 'userFile', 'total'];
const limits: Record<CapName, { min: number; max: number }> = {
  perFile: { min: 1000, max: 1_000_000 },
  userFile: { min: 500, max: 1_000_000 },
  total: { min: 2000, max: 3_000_000 },
};

/** One cap: saved on blur or Enter when it is a whole number in range; otherwise says why and keeps the old one. */
function CapField({ name, value }: { readonly name: CapName; readonly value: number }) {
  const t = useT();
  const [text, setText] = useState(String(value));
  const [invalid, setInvalid] = useState(false);
  const { min, max } = limits[name];
  const commit = () => {
    const next = Number(text);
    if (!Number.isInteger(next) || next < min || next > max) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    if (next !== value) void settingsActions.update(familiar, { prompt: { [name]: next } });
  };
  return (
    <label className="cap-field">
      <span>{t(`persona.cap.${name}`)}</span>
      <input
        className="input"
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        step={1000}
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

/** The prompt caps for the persona files, editable: the meters above follow at once. */
export function PromptCapsFields() {
  const caps = useSettingsStore((state) => state.settings?.prompt);
  if (caps === undefined) return null;
  return (
    <div className="cap-fields">
      {capNames.map((name) => (
        <CapField key={`${name}-${caps[name]}`} name={name} value={caps[name]} />
      ))}
    </div>
  );
}
