import type { Settings, SettingsPatch } from '../../../shared/settings';
import type { MessageKey } from '../../i18n/en';
import { useSettingsStore } from './settings-store';

/** The parts of the settings that are always there (the provider is null until one is saved). */
export type SettingPart = { [K in keyof Settings]: null extends Settings[K] ? never : K }[keyof Settings];

/** The fields of one part that have a label: the message `settings.<part>.<field>`. */
export type LabelledField<P extends SettingPart> = {
  [F in keyof Settings[P] & string]: `settings.${P}.${F}` extends MessageKey ? F : never;
}[keyof Settings[P] & string];

/** The labelled fields of one part that can hold every value of type T (T is wrapped so that a union is not split). */
export type FieldOfType<P extends SettingPart, T> = {
  [F in LabelledField<P>]: [T] extends [Settings[P][F]] ? F : never;
}[LabelledField<P>];

/** A field's label: LabelledField admits only fields whose message exists, so the key is a MessageKey. */
export const fieldLabelKey = <P extends SettingPart>(part: P, field: LabelledField<P>): MessageKey =>
  `settings.${part}.${field}` as MessageKey;

/** One field's value, or undefined until the settings have loaded. */
export function useSettingField<P extends SettingPart, F extends keyof Settings[P]>(
  part: P,
  field: F,
): Settings[P][F] | undefined {
  return useSettingsStore((state) => {
    const section: Settings[P] | undefined = state.settings?.[part];
    return section?.[field];
  });
}

/**
 * The settings.update patch that sets one field. TypeScript cannot type an object built from two
 * computed keys, so the value is only known to be a scalar here; main checks every patch against
 * settingsPatchSchema, as it does for any page.
 */
export const fieldPatch = <P extends SettingPart>(
  part: P,
  field: keyof Settings[P],
  value: string | number | boolean,
) => ({ [part]: { [field]: value } }) as SettingsPatch;
