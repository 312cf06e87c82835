import { hasMessage, useT } from '../../i18n/i18n';
import { fieldLabelKey, fieldPatch, useSettingField } from './setting-field';
import type { FieldOfType, SettingPart } from './setting-field';
import { SettingSelect } from './SettingsSection';

interface SettingChoiceProps<P extends SettingPart, T extends string | number> {
  readonly part: P;
  readonly field: FieldOfType<P, T>;
  readonly options: readonly T[];
  /** How an option reads; by default its message `settings.<part>.<field>.<option>`. */
  readonly optionLabel?: (option: T) => string;
}

/** A field of the settings chosen among fixed options; its label is the message `settings.<part>.<field>`. */
export function SettingChoice<P extends SettingPart, T extends string | number>(props: SettingChoiceProps<P, T>) {
  const { part, field, options, optionLabel } = props;
  const t = useT();
  const value = useSettingField(part, field);
  if (value === undefined) return null;
  const label = fieldLabelKey(part, field);
  const messageOf = (option: T) => {
    const key = `${label}.${option}`;
    return hasMessage(key) ? t(key) : String(option);
  };
  return (
    <SettingSelect
      id={`settings-${part}-${field}`}
      label={t(label)}
      value={String(value)}
      options={options}
      optionLabel={optionLabel ?? messageOf}
      patch={(option) => fieldPatch(part, field, option)}
    />
  );
}
