import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpPromptEntry, McpResourceEntry, McpResourceTemplateEntry } from '../../../shared/mcp-attachments';

/** Pages read of one list at most (a server that pages forever is cut off here). */
const MAX_PAGES = 10;
/** Entries kept of one list: the composer's menu filters, it does not scroll through thousands. */
const MAX_ENTRIES = 500;

/** What one server offers a message: its resources, templates and prompts (empty when it offers none). */
export interface ServerCatalog {
  readonly resources: McpResourceEntry[];
  readonly templates: McpResourceTemplateEntry[];
  readonly prompts: McpPromptEntry[];
}

export interface RequestOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs: number;
}

async function paged<T>(
  read: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>,
) {
  const all: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES && all.length < MAX_ENTRIES; page++) {
    const listed = await read(cursor);
    all.push(...listed.items);
    cursor = listed.nextCursor;
    if (cursor === undefined) break;
  }
  return all.slice(0, MAX_ENTRIES);
}

const optional = <K extends string>(key: K, value: string | undefined) =>
  (value === undefined ? {} : { [key]: value }) as Partial<Record<K, string>>;

/** resources/list, resources/templates/list and prompts/list of one server, as its capabilities allow. */
export async function readCatalog(client: Client, server: string, options: RequestOptions): Promise<ServerCatalog> {
  const capabilities = client.getServerCapabilities();
  const request = { timeout: options.timeoutMs, ...(options.signal === undefined ? {} : { signal: options.signal }) };
  const params = (cursor: string | undefined) => (cursor === undefined ? {} : { cursor });
  const [resources, templates, prompts] = await Promise.all([
    capabilities?.resources === undefined
      ? []
      : paged(async (cursor) => {
          const listed = await client.listResources(params(cursor), request);
          return { items: listed.resources, nextCursor: listed.nextCursor };
        }),
    capabilities?.resources === undefined
      ? []
      : paged(async (cursor) => {
          const listed = await client.listResourceTemplates(params(cursor), request);
          return { items: listed.resourceTemplates, nextCursor: listed.nextCursor };
        }),
    capabilities?.prompts === undefined
      ? []
      : paged(async (cursor) => {
          const listed = await client.listPrompts(params(cursor), request);
          return { items: listed.prompts, nextCursor: listed.nextCursor };
        }),
  ]);
  /** What every listed resource, template and prompt carries: its server, its name and how it is shown. */
  const listed = (entry: { name: string; title?: string | undefined; description?: string | undefined }) => ({
    server,
    name: entry.name,
    ...optional('title', entry.title),
    ...optional('description', entry.description),
  });
  return {
    resources: resources.map((entry) => ({
      ...listed(entry),
      uri: entry.uri,
      ...optional('mimeType', entry.mimeType),
    })),
    templates: templates.map((entry) => ({ ...listed(entry), uriTemplate: entry.uriTemplate })),
    prompts: prompts.map((entry) => ({
      ...listed(entry),
      arguments: (entry.arguments ?? []).map((argument) => ({
        name: argument.name,
        ...optional('description', argument.description),
        ...(argument.required === undefined ? {} : { required: argument.required }),
      })),
    })),
  };
}

export const readResource = (client: Client, uri: string, options: RequestOptions): Promise<ReadResourceResult> =>
  client.readResource(
    { uri },
    { timeout: options.timeoutMs, ...(options.signal === undefined ? {} : { signal: options.signal }) },
  );

export const getPrompt = (
  client: Client,
  name: string,
  args: Record<string, string>,
  options: RequestOptions,
): Promise<GetPromptResult> =>
  client.getPrompt(
    { name, arguments: args },
    { timeout: options.timeoutMs, ...(options.signal === undefined ? {} : { signal: options.signal }) },
  );
