import type {
  McpCatalog,
  McpPromptEntry,
  McpResourceEntry,
  McpResourceTemplateEntry,
} from '../../../shared/mcp-attachments';
import { promptCommand } from '../../../shared/mcp-attachments';

/** An `@word` or `/word` being typed at the caret: what the composer's menu filters by. */
export interface MenuTrigger {
  readonly kind: '@' | '/';
  readonly query: string;
  /** Where the trigger starts and the caret is: picking replaces this span. */
  readonly start: number;
  readonly end: number;
}

export type MenuItem =
  | { readonly kind: 'resource'; readonly entry: McpResourceEntry }
  | { readonly kind: 'template'; readonly entry: McpResourceTemplateEntry }
  | { readonly kind: 'prompt'; readonly entry: McpPromptEntry };

/** A menu shows at most this many; typing narrows it. */
const MAX_ITEMS = 50;

/** The trigger word ending at the caret, if any: `@` or `/` at the start of a word, then no space. */
export function triggerAt(draft: string, caret: number): MenuTrigger | null {
  const match = /(^|\s)([@/])([^\s@/]*)$/.exec(draft.slice(0, caret));
  if (match === null) return null;
  return {
    kind: match[2] as '@' | '/',
    query: match[3] ?? '',
    start: match.index + (match[1]?.length ?? 0),
    end: caret,
  };
}

const matches = (query: string, ...fields: (string | undefined)[]) => {
  const wanted = query.toLowerCase();
  return fields.some((field) => field !== undefined && field.toLowerCase().includes(wanted));
};

/** What the menu lists for a trigger: resources and templates for `@`, prompts for `/`. */
export function menuItems(catalog: McpCatalog | null, trigger: MenuTrigger): MenuItem[] {
  if (catalog === null) return [];
  const { query } = trigger;
  const items: MenuItem[] =
    trigger.kind === '@'
      ? [
          ...catalog.resources
            .filter((entry) => matches(query, entry.name, entry.title, entry.uri, entry.server))
            .map((entry) => ({ kind: 'resource' as const, entry })),
          ...catalog.templates
            .filter((entry) => matches(query, entry.name, entry.title, entry.uriTemplate, entry.server))
            .map((entry) => ({ kind: 'template' as const, entry })),
        ]
      : catalog.prompts
          .filter((entry) => matches(query, promptCommand(entry.server, entry.name).slice(1), entry.title))
          .map((entry) => ({ kind: 'prompt' as const, entry }));
  return items.slice(0, MAX_ITEMS);
}

/** Whether any server offers something for this kind of trigger (else typing `@` or `/` shows nothing). */
export const offersAny = (catalog: McpCatalog | null, kind: '@' | '/'): boolean =>
  catalog !== null &&
  (kind === '@' ? catalog.resources.length + catalog.templates.length > 0 : catalog.prompts.length > 0);
