import type { ReactNode } from 'react';
import { LabelledField } from './LabelledField';
import { useCommittedText } from './use-committed-text';

interface SettingTextFieldProps {
  readonly id: string;
  readonly label: ReactNode;
  /** The saved text the field starts from. */
  readonly value: string;
  readonly placeholder: string;
  readonly maxLength?: number;
  readonly invalid?: boolean;
  /** The id of the text that explains the field. */
  readonly describedBy: string;
  /** Called on blur or Enter with the text as typed: the owner checks and saves it. */
  readonly onCommit: (text: string) => void;
  /** Below the input: an error or the explanation. */
  readonly children?: ReactNode;
}

/** A one-line text setting (names, not prose): no spelling marks, no autofill, saved on blur or Enter. */
export function SettingTextField(props: SettingTextFieldProps) {
  const { id, label, value, placeholder, maxLength, invalid, describedBy, onCommit, children } = props;
  const input = useCommittedText(value, onCommit);
  return (
    <LabelledField id={id} label={label} layout="column">
      <input
        id={id}
        className="input"
        type="text"
        spellCheck={false}
        autoComplete="off"
        maxLength={maxLength}
        placeholder={placeholder}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        {...input}
      />
      {children}
    </LabelledField>
  );
}
