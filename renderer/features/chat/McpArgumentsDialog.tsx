import { useState } from 'react';
import { Modal } from '../../app/Modal';
import { useT } from '../../i18n/i18n';

export interface McpArgumentField {
  readonly name: string;
  readonly description?: string | undefined;
  readonly required: boolean;
}

/**
 * Asks for a prompt's arguments or a resource template's variables before it is attached: one field
 * each, the required ones marked; Attach stays off until they are filled, Esc or Cancel drops it.
 */
export function McpArgumentsDialog({
  label,
  fields,
  onDone,
  onCancel,
}: {
  readonly label: string;
  readonly fields: readonly McpArgumentField[];
  readonly onDone: (values: Record<string, string>) => void;
  readonly onCancel: () => void;
}) {
  const t = useT();
  const [values, setValues] = useState<Record<string, string>>({});
  const complete = fields.every((field) => !field.required || (values[field.name] ?? '').trim() !== '');
  const submit = () => {
    if (!complete) return;
    // Only the fields filled in: an optional argument left empty is not sent.
    onDone(Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim() !== '')));
  };
  return (
    <Modal open onClose={onCancel} title={t('mcpPick.argsTitle', { label })} className="mcp-arguments-dialog">
      <form
        className="mcp-arguments-form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        {fields.map((field, index) => (
          <label key={field.name} className="mcp-arguments-field">
            <span>
              {field.name} {field.required && t('mcpPick.required')}
            </span>
            <input
              type="text"
              className="input"
              value={values[field.name] ?? ''}
              required={field.required}
              {...(index === 0 ? { 'data-autofocus': true } : {})}
              onChange={(event) => setValues({ ...values, [field.name]: event.target.value })}
            />
            {field.description !== undefined && <small>{field.description}</small>}
          </label>
        ))}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onCancel}>
            {t('mcpPick.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={!complete}>
            {t('mcpPick.attach')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
