import { useState } from 'react';
import type { ZodType } from 'zod';
import { FormError } from '../../app/FormError';
import { SettingTextField } from './SettingTextField';

/** The entries in typed text, each checked by the schema the core applies; invalid ones are reported, not saved. */
export function parseEntries(
  text: string,
  separators: RegExp,
  schema: ZodType<string>,
): { entries: string[]; invalid: string[] } {
  const words = text
    .split(separators)
    .map((word) => word.trim())
    .filter((word) => word !== '');
  const entries: string[] = [];
  const invalid: string[] = [];
  for (const word of words) {
    const parsed = schema.safeParse(word);
    if (parsed.success) entries.push(parsed.data);
    else invalid.push(word);
  }
  return { entries: [...new Set(entries)], invalid };
}

interface NameListFieldProps {
  readonly id: string;
  readonly label: string;
  readonly placeholder: string;
  /** The saved list. The owner keys the field by it, so a change saved elsewhere starts it again. */
  readonly value: readonly string[];
  /** What separates entries as typed, and what joins them when shown. */
  readonly separators: RegExp;
  readonly joiner: string;
  /** One entry, as the settings schema checks it. */
  readonly schema: ZodType<string>;
  /** The message for the entries the schema refused (joined with commas). */
  readonly invalidMessage: (entries: string) => string;
  /** The id of the text that explains the field. */
  readonly describedBy: string;
  readonly onSave: (entries: string[]) => void;
}

/**
 * A list setting typed as one line (names of variables, folders): saved on blur or Enter when every
 * entry is valid and the list changed; add one by typing it, remove one by deleting it.
 */
export function NameListField(props: NameListFieldProps) {
  const { id, label, placeholder, value, separators, joiner, schema, invalidMessage, describedBy, onSave } = props;
  const [invalid, setInvalid] = useState<string[]>([]);
  const commit = (text: string) => {
    const parsed = parseEntries(text, separators, schema);
    setInvalid(parsed.invalid);
    if (parsed.invalid.length > 0) return;
    if (parsed.entries.join('\n') !== value.join('\n')) onSave(parsed.entries);
  };
  return (
    <SettingTextField
      id={id}
      label={label}
      value={value.join(joiner)}
      placeholder={placeholder}
      invalid={invalid.length > 0}
      describedBy={describedBy}
      onCommit={commit}
    >
      <FormError inline message={invalid.length > 0 && invalidMessage(invalid.join(', '))} />
    </SettingTextField>
  );
}
