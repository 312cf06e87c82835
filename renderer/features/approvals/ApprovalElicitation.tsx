import type { ApprovalRequest, ElicitationField } from '../../../shared/ipc/approvals';
import { useT } from '../../i18n/i18n';
import { initialDraft } from '../../../shared/elicitation-answer';
import { McpRequestSection } from './McpRequestSection';
import type { FieldDraft } from '../../../shared/elicitation-answer';
import { approvalsActions, useApprovalsStore } from './approvals-store';

type Elicitation = NonNullable<ApprovalRequest['elicitation']>;

const inputType = (field: ElicitationField): string =>
  field.kind === 'number' || field.kind === 'integer'
    ? 'number'
    : field.format === 'email'
      ? 'email'
      : field.format === 'uri'
        ? 'url'
        : field.format === 'date'
          ? 'date'
          : 'text';

/** One field of the server's form: text, a number, a yes/no, one choice or several. */
function FormField({ field, value }: { readonly field: ElicitationField; readonly value: FieldDraft }) {
  const t = useT();
  const id = `elicitation-${field.name}`;
  const label = (
    <>
      {field.title ?? field.name}
      {field.required && <span className="muted"> ({t('approval.elicitation.required')})</span>}
    </>
  );
  const hint = field.description === undefined ? null : <span className="muted field-hint">{field.description}</span>;
  if (field.kind === 'boolean') {
    return (
      <div className="elicitation-field">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={value === true}
            onChange={(event) => approvalsActions.setField(field.name, event.target.checked)}
          />
          {label}
        </label>
        {hint}
      </div>
    );
  }
  if (field.kind === 'choices') {
    const chosen = Array.isArray(value) ? (value as readonly string[]) : [];
    return (
      <fieldset className="elicitation-field">
        <legend>{label}</legend>
        {hint}
        {(field.options ?? []).map((option) => (
          <label key={option.value} className="checkbox">
            <input
              type="checkbox"
              checked={chosen.includes(option.value)}
              onChange={(event) =>
                approvalsActions.setField(
                  field.name,
                  event.target.checked ? [...chosen, option.value] : chosen.filter((held) => held !== option.value),
                )
              }
            />
            {option.label}
          </label>
        ))}
      </fieldset>
    );
  }
  const text = typeof value === 'string' ? value : '';
  return (
    <div className="elicitation-field">
      <label htmlFor={id}>{label}</label>
      {hint}
      {field.kind === 'choice' ? (
        <select id={id} value={text} onChange={(event) => approvalsActions.setField(field.name, event.target.value)}>
          {!field.required || text === '' ? <option value="">—</option> : null}
          {(field.options ?? []).map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type={inputType(field)}
          value={text}
          required={field.required}
          {...(field.minimum === undefined ? {} : { min: field.minimum })}
          {...(field.maximum === undefined ? {} : { max: field.maximum })}
          {...(field.kind === 'integer' ? { step: 1 } : field.kind === 'number' ? { step: 'any' } : {})}
          onChange={(event) => approvalsActions.setField(field.name, event.target.value)}
        />
      )}
    </div>
  );
}

/**
 * A question from the user's MCP server while its tool runs: its message, then its form's fields,
 * or the page it wants opened (the host first: nothing opens until the user says so).
 */
export function ApprovalElicitation({ elicitation }: { readonly elicitation: Elicitation }) {
  const t = useT();
  const drafts = useApprovalsStore((state) => state.draft.fields);
  return (
    <McpRequestSection className="approval-elicitation" server={elicitation.server}>
      <p className="elicitation-message">{elicitation.message}</p>
      {elicitation.mode === 'url' ? (
        <>
          <h3>{t('approval.elicitation.url', { host: elicitation.host ?? '' })}</h3>
          <pre className="approval-mcp-arguments">{elicitation.url}</pre>
        </>
      ) : (
        <form className="elicitation-form" onSubmit={(event) => event.preventDefault()}>
          {elicitation.fields.map((field) => (
            <FormField key={field.name} field={field} value={drafts[field.name] ?? initialDraft(field)} />
          ))}
        </form>
      )}
    </McpRequestSection>
  );
}
