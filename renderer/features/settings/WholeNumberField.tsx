import { useState } from 'react';
import type { z } from 'zod';
import { FormError } from '../../app/FormError';
import { useT } from '../../i18n/i18n';
import { useCommittedText } from './use-committed-text';

export interface WholeNumberFieldProps {
  readonly label: string;
  readonly value: number;
  readonly min: number;
  readonly max: number;
  readonly step?: number;
  /** Called with a new value only: a whole number in range that differs from `value`. */
  readonly onCommit: (next: number) => void;
}

/**
 * The bounds main accepts for one number field of the settings (optional in a patch, or defaulted),
 * read from the schema main checks it with, so that the field says them before main would refuse.
 */
export function boundsOf(field: { unwrap(): z.ZodNumber }): { readonly min: number; readonly max: number } {
  const { minValue: min, maxValue: max } = field.unwrap();
  // Every number setting is bounded in shared/settings: a missing bound is a schema mistake.
  if (min === null || max === null) throw new Error('A number setting needs a min and a max');
  return { min, max };
}

/** A whole number saved on blur or Enter when it is in range; otherwise says why and keeps the old one. */
export function WholeNumberField({ label, value, min, max, step, onCommit }: WholeNumberFieldProps) {
  const t = useT();
  const [invalid, setInvalid] = useState(false);
  const input = useCommittedText(String(value), (text) => {
    const next = Number(text);
    if (!Number.isInteger(next) || next < min || next > max) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    if (next !== value) onCommit(next);
  });
  return (
    <label className="cap-field">
      <span>{label}</span>
      <input
        className="input"
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        step={step}
        aria-invalid={invalid}
        {...input}
      />
      <FormError inline message={invalid && t('persona.capRange', { min, max })} />
    </label>
  );
}
