import { parseDocument } from 'yaml';
import { skillNameSchema } from '../../../shared/settings';

/** The specification's limits (agentskills.io/specification). */
export const maxNameChars = 64;
export const maxDescriptionChars = 1024;
export const maxCompatibilityChars = 500;

/** The front matter fields the specification defines; anything else is reported and ignored. */
const knownFields = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);

export interface SkillMeta {
  readonly name: string;
  /** At most maxDescriptionChars: a longer one is cut (with a warning) before it reaches the prompt. */
  readonly description: string;
  readonly license?: string;
  readonly compatibility?: string;
  readonly metadata?: Readonly<Record<string, string>>;
  /** Space-separated tool names (experimental in the specification): shown, never acted on. */
  readonly allowedTools?: string;
}

/**
 * A SKILL.md read and judged. `meta` is there only when nothing is wrong enough to refuse the
 * skill (`errors` empty); `warnings` are shown but the skill still loads.
 */
export interface ParsedSkill {
  readonly meta?: SkillMeta;
  /** The Markdown after the front matter: what the skill tool hands the model on use. */
  readonly body: string;
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
}

const frontMatterPattern = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

const optionalText = (value: unknown, field: string, errors: string[], maxChars?: number): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    errors.push(`'${field}' must be text.`);
    return undefined;
  }
  if (maxChars !== undefined && value.length > maxChars) {
    errors.push(`'${field}' is ${value.length} characters long; the limit is ${maxChars}.`);
    return undefined;
  }
  return value;
};

function metadataOf(value: unknown, errors: string[]): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    errors.push("'metadata' must be a map of names to text.");
    return undefined;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  // Numbers and booleans (version: 1.0) are written as text by most authors' intent.
  const bad = entries.filter(([, item]) => !['string', 'number', 'boolean'].includes(typeof item));
  if (bad.length > 0) {
    errors.push(`'metadata' values must be text: ${bad.map(([key]) => key).join(', ')} is not.`);
    return undefined;
  }
  return Object.fromEntries(entries.map(([key, item]) => [key, String(item)]));
}

function nameErrors(name: unknown, folderName: string): string[] {
  if (name === undefined || name === null || name === '') return ["'name' is missing."];
  if (typeof name !== 'string') return ["'name' must be text."];
  if (name.length > maxNameChars) return [`'name' is ${name.length} characters long; the limit is ${maxNameChars}.`];
  if (!skillNameSchema.safeParse(name).success) {
    return [
      `'name' may hold only lowercase letters a-z, digits and single hyphens inside ('${name}' does not qualify).`,
    ];
  }
  if (name !== folderName) return [`'name' is '${name}' but the folder is '${folderName}'; they must match.`];
  return [];
}

/** Reads SKILL.md's text: YAML front matter between '---' lines, then the Markdown body. */
export function parseSkillFile(text: string, folderName: string): ParsedSkill {
  const match = frontMatterPattern.exec(text);
  if (match === null) {
    return {
      body: text,
      errors: ["SKILL.md does not start with YAML front matter between '---' lines."],
      warnings: [],
    };
  }
  const body = text.slice(match[0].length).replace(/^\s*\n/, '');
  const document = parseDocument(match[1] ?? '', { prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    return { body, errors: document.errors.map((error) => `YAML: ${error.message}`), warnings: [] };
  }
  const data: unknown = document.toJS();
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { body, errors: ['The front matter is not a map of fields.'], warnings: [] };
  }
  const fields = data as Record<string, unknown>;
  const errors = nameErrors(fields['name'], folderName);
  const warnings: string[] = [];
  let description = fields['description'];
  if (typeof description !== 'string' || description.trim() === '') {
    errors.push(description === undefined ? "'description' is missing." : "'description' must be non-empty text.");
    description = '';
  } else if (description.length > maxDescriptionChars) {
    // Public skills exceed this (anthropics/skills' claude-api): loaded, with the prompt given the limit.
    warnings.push(
      `'description' is ${description.length} characters long; the limit is ${maxDescriptionChars}, so the prompt gets the first ${maxDescriptionChars}.`,
    );
    description = description.slice(0, maxDescriptionChars);
  }
  const license = optionalText(fields['license'], 'license', errors);
  const compatibility = optionalText(fields['compatibility'], 'compatibility', errors, maxCompatibilityChars);
  const allowedTools = optionalText(fields['allowed-tools'], 'allowed-tools', errors);
  const metadata = metadataOf(fields['metadata'], errors);
  const unknown = Object.keys(fields).filter((key) => !knownFields.has(key));
  if (unknown.length > 0) warnings.push(`Fields the specification does not define are ignored: ${unknown.join(', ')}.`);
  if (errors.length > 0) return { body, errors, warnings };
  return {
    meta: {
      name: fields['name'] as string,
      description: (description as string).trim(),
      ...(license === undefined ? {} : { license }),
      ...(compatibility === undefined ? {} : { compatibility }),
      ...(metadata === undefined ? {} : { metadata }),
      ...(allowedTools === undefined ? {} : { allowedTools }),
    },
    body,
    errors,
    warnings,
  };
}
