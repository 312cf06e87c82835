import type { ElicitationField } from './ipc/approvals';

/** What a form field holds while the user fills it: text as typed (numbers too), a yes/no, choices. */
export type FieldDraft = string | boolean | readonly string[];
type Value = string | number | boolean | string[];

/** The value a field starts with: the server's default, else empty (no for a yes/no). */
export function initialDraft(field: ElicitationField): FieldDraft {
  const given = field.default;
  if (field.kind === 'boolean') return given === true;
  if (field.kind === 'choices') return Array.isArray(given) ? given : [];
  if (given === undefined || Array.isArray(given)) return '';
  return String(given);
}

/**
 * The form's answer as the server reads it: each filled field as its type (a number parsed,
 * within its bounds), an empty optional one left out. `problems` names the fields that stop
 * sending: a required one empty, a number that is not one or out of bounds.
 */
export function elicitationContent(
  fields: readonly ElicitationField[],
  drafts: Readonly<Record<string, FieldDraft>>,
): { content: Record<string, Value>; problems: string[] } {
  const content: Record<string, Value> = {};
  const problems: string[] = [];
  for (const field of fields) {
    const draft = drafts[field.name] ?? initialDraft(field);
    const label = field.title ?? field.name;
    if (field.kind === 'boolean') {
      content[field.name] = draft === true;
      continue;
    }
    if (field.kind === 'choices') {
      const chosen = Array.isArray(draft) ? [...(draft as readonly string[])] : [];
      if (chosen.length > 0) content[field.name] = chosen;
      else if (field.required) problems.push(label);
      continue;
    }
    const text = typeof draft === 'string' ? draft.trim() : '';
    if (text === '') {
      if (field.required) problems.push(label);
      continue;
    }
    if (field.kind === 'number' || field.kind === 'integer') {
      const value = Number(text);
      const fits =
        Number.isFinite(value) &&
        (field.kind === 'number' || Number.isInteger(value)) &&
        (field.minimum === undefined || value >= field.minimum) &&
        (field.maximum === undefined || value <= field.maximum);
      if (fits) content[field.name] = value;
      else problems.push(label);
      continue;
    }
    content[field.name] = text;
  }
  return { content, problems };
}
