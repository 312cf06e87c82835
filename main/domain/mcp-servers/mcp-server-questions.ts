import type {
  CreateMessageRequest,
  ElicitRequest,
  ElicitRequestFormParams,
  ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationField } from '../../../shared/ipc/approvals';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { ApprovalInput, ApprovalOutcome } from '../approvals/broker';
import type { ServerAsker } from './mcp-server-manager';

/** The most fields of a server's form drawn; a longer form is refused (declined) as unreasonable. */
const MAX_FIELDS = 50;
/** The most text of one sampling message the dialog carries. */
const MAX_SHOWN_CHARS = 20_000;

type Property = Record<string, unknown>;
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const number = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
const titled = (list: unknown): { value: string; label: string }[] | undefined =>
  Array.isArray(list)
    ? list.flatMap((entry: unknown) => {
        const option = entry as { const?: unknown; title?: unknown } | null;
        const value = text(option?.const);
        return value === undefined ? [] : [{ value, label: text(option?.title) ?? value }];
      })
    : undefined;

/** One property of the requested schema as a field the dialog draws; undefined for a kind it cannot. */
function fieldOf(name: string, property: Property, required: boolean): ElicitationField | undefined {
  const base = {
    name,
    required,
    ...(text(property['title']) === undefined ? {} : { title: text(property['title']) }),
    ...(text(property['description']) === undefined ? {} : { description: text(property['description']) }),
  };
  const fallback = property['default'];
  const withDefault = (field: ElicitationField): ElicitationField =>
    fallback === undefined ? field : { ...field, default: fallback as NonNullable<ElicitationField['default']> };
  switch (property['type']) {
    case 'boolean':
      return withDefault({ ...base, kind: 'boolean' });
    case 'number':
    case 'integer': {
      const [minimum, maximum] = [number(property['minimum']), number(property['maximum'])];
      return withDefault({
        ...base,
        kind: property['type'],
        ...(minimum === undefined ? {} : { minimum }),
        ...(maximum === undefined ? {} : { maximum }),
      });
    }
    case 'string': {
      const names = Array.isArray(property['enumNames']) ? (property['enumNames'] as unknown[]) : [];
      const options = Array.isArray(property['enum'])
        ? (property['enum'] as unknown[]).map((value, at) => ({
            value: String(value),
            label: text(names[at]) ?? String(value),
          }))
        : titled(property['oneOf']);
      if (options !== undefined) return withDefault({ ...base, kind: 'choice', options });
      const format = text(property['format']);
      return withDefault({ ...base, kind: 'text', ...(format === undefined ? {} : { format }) });
    }
    case 'array': {
      const items = (property['items'] ?? {}) as Property;
      const options = Array.isArray(items['enum'])
        ? (items['enum'] as unknown[]).map((value) => ({ value: String(value), label: String(value) }))
        : titled(items['anyOf'] ?? items['oneOf']);
      return options === undefined ? undefined : withDefault({ ...base, kind: 'choices', options });
    }
    default:
      return undefined;
  }
}

/** The requested schema's properties as fields, in the server's order. */
export function elicitationFields(schema: ElicitRequestFormParams['requestedSchema']): Result<ElicitationField[]> {
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(schema.properties as Record<string, Property>);
  if (entries.length > MAX_FIELDS) return err('invalid_payload', `The form has over ${MAX_FIELDS} fields.`);
  const fields: ElicitationField[] = [];
  for (const [name, property] of entries) {
    const field = fieldOf(name, property, required.has(name));
    if (field === undefined) return err('invalid_payload', `The field ${name} is of a kind Familiar cannot show.`);
    fields.push(field);
  }
  return ok(fields);
}

const where = (asker: ServerAsker) => ({
  conversationId: asker.call?.conversationId ?? '',
  toolCallId: asker.call?.toolCallId ?? '',
  tool: asker.call?.name ?? `${asker.server}__`,
  paths: [],
  operations: [],
  persona: false,
  canAllowForConversation: false,
  warnings: [],
});

/**
 * A server's elicitation as a question for the approval dialog: its form's fields, or a link
 * (http or https only) whose host is shown before anything opens. Refused: a form Familiar cannot
 * draw, a link of another scheme.
 */
export function elicitationQuestion(asker: ServerAsker, params: ElicitRequest['params']): Result<ApprovalInput> {
  if (params.mode === 'url') {
    let url: URL;
    try {
      url = new URL(params.url);
    } catch {
      return err('invalid_payload', 'The server sent a link that is not a URL.');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      return err('invalid_payload', `Familiar opens only http and https links, not ${url.protocol}`);
    }
    return ok({
      ...where(asker),
      summary: `The MCP server "${asker.server}" asks you to open a page on ${url.host}`,
      facts: {},
      elicitation: {
        server: asker.server,
        message: params.message,
        mode: 'url',
        fields: [],
        url: url.href,
        host: url.host,
      },
    });
  }
  const fields = elicitationFields(params.requestedSchema);
  if (!fields.ok) return fields;
  return ok({
    ...where(asker),
    summary: `The MCP server "${asker.server}" asks you for some information`,
    facts: {},
    elicitation: { server: asker.server, message: params.message, mode: 'form', fields: fields.value },
  });
}

/** The user's answer as the server reads it: accept (with the form's values), decline or cancel. */
export function elicitResult(outcome: ApprovalOutcome, mode: 'form' | 'url'): ElicitResult {
  if (outcome.approved) {
    return mode === 'form' ? { action: 'accept', content: { ...outcome.elicitationContent } } : { action: 'accept' };
  }
  return { action: outcome.expired || outcome.dismissed === true ? 'cancel' : 'decline' };
}

const shown = (value: string) => (value.length > MAX_SHOWN_CHARS ? `${value.slice(0, MAX_SHOWN_CHARS)}…` : value);

/** What one sampling message says, as text (pictures and sounds named, not shown). */
export function samplingText(content: CreateMessageRequest['params']['messages'][number]['content']): string {
  const parts = Array.isArray(content) ? content : [content];
  return parts.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}

/** A server's request for the model as a question: its messages and the token limit it will run under. */
export function samplingQuestion(
  asker: ServerAsker,
  params: CreateMessageRequest['params'],
  capTokens: number,
): ApprovalInput {
  const maxTokens = Math.max(1, Math.min(params.maxTokens, capTokens));
  return {
    ...where(asker),
    summary: `The MCP server "${asker.server}" asks the model to answer (at most ${maxTokens} tokens)`,
    facts: {},
    sampling: {
      server: asker.server,
      ...(params.systemPrompt === undefined ? {} : { systemPrompt: shown(params.systemPrompt) }),
      messages: params.messages.map((message) => ({ role: message.role, text: shown(samplingText(message.content)) })),
      maxTokens,
      requestedMaxTokens: Math.max(1, params.maxTokens),
    },
  };
}
