import type { ZodType } from 'zod';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import type { MessageKey } from '../../i18n/en';
import { fieldLabelKey, useSettingField } from './setting-field';
import type { FieldOfType, SettingPart } from './setting-field';
import { NameListField } from './NameListField';
import { settingsActions } from './settings-store';

/** What separates entries as typed, and what joins them when shown. */
const separations = {
  /** Spaces, commas or semicolons (names, hosts). */
  words: { separators: /[\s,;]+/, joiner: ' ' },
  /** Commas or semicolons only: an entry may hold a space (folder names). */
  commas: { separators: /[,;]/, joiner: ', ' },
} as const;

interface SettingListProps<P extends SettingPart> {
  readonly part: P;
  readonly field: FieldOfType<P, string[]>;
  /** One entry, as the settings schema checks it. */
  readonly schema: ZodType<string>;
  readonly placeholder: string;
  readonly separated: keyof typeof separations;
}

/**
 * A list field of the settings typed as one line. Its label is the message `settings.<part>.<field>`,
 * with `….explain` shown under it and `….invalid` ({entries}) for entries the schema refuses.
 */
export function SettingList<P extends SettingPart>({
  part,
  field,
  schema,
  placeholder,
  separated,
}: SettingListProps<P>) {
  const t = useT();
  const value = useSettingField(part, field) as readonly string[] | undefined;
  if (value === undefined) return null;
  const label = fieldLabelKey(part, field);
  const id = `settings-${part}-${field}`;
  return (
    <>
      <NameListField
        key={value.join('\n')}
        id={id}
        label={t(label)}
        placeholder={placeholder}
        value={value}
        {...separations[separated]}
        schema={schema}
        invalidMessage={(entries) => t(`${label}.invalid` as MessageKey, { entries })}
        describedBy={`${id}-explain`}
        onSave={(entries) => void settingsActions.update(familiar, { [part]: { [field]: entries } })}
      />
      <p className="muted" id={`${id}-explain`}>
        {t(`${label}.explain` as MessageKey)}
      </p>
    </>
  );
}
