import { hasMessage, useT } from '../../i18n/i18n';
import { fieldLabelKey, fieldPatch, useSettingField } from './setting-field';
import type { FieldOfType, SettingPart } from './setting-field';
import { SettingCheckbox } from './SettingsSection';

interface SettingSwitchProps<P extends SettingPart> {
  readonly part: P;
  readonly field: FieldOfType<P, boolean>;
}

/**
 * A yes/no field of the settings. Its label is the message `settings.<part>.<field>`; when the
 * dictionary also has `settings.<part>.<field>.explain`, that is shown under it as its description.
 */
export function SettingSwitch<P extends SettingPart>({ part, field }: SettingSwitchProps<P>) {
  const t = useT();
  const value = useSettingField(part, field);
  if (value === undefined) return null;
  const label = fieldLabelKey(part, field);
  const explanation = `${label}.explain`;
  return (
    <SettingCheckbox
      checked={value === true}
      patch={(checked) => fieldPatch(part, field, checked)}
      explanation={hasMessage(explanation) ? t(explanation) : undefined}
    >
      {t(label)}
    </SettingCheckbox>
  );
}
