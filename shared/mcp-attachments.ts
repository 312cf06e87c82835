import { z } from 'zod';
import { mcpServerIdSchema } from './mcp-servers';

/**
 * What the user's MCP servers offer a message (issue 29): resources to attach with `@` and prompts
 * to run as `/server:prompt`. The composer lists them (mcpServers.catalog), the message names the
 * ones picked (chat.send `mcp`), and main reads them from the servers when the message is sent.
 */

export const maxMcpAttachments = 8;
/** The most of one resource's or prompt's text a message carries (the rest is cut, and said to be). */
export const maxMcpAttachmentChars = 100_000;

const text = (max: number) => z.string().max(max);

/** What every listed resource, template and prompt has: the server offering it, its name and how it is shown. */
const listedByServer = {
  server: z.string(),
  name: text(500),
  title: text(500).optional(),
  description: text(2000).optional(),
};

export const mcpResourceEntrySchema = z.object({
  ...listedByServer,
  uri: text(4000),
  mimeType: text(200).optional(),
});
export type McpResourceEntry = z.infer<typeof mcpResourceEntrySchema>;

/** A resource template: its `{variables}` are asked for like a prompt's arguments, then it is read. */
export const mcpResourceTemplateEntrySchema = z.object({ ...listedByServer, uriTemplate: text(4000) });
export type McpResourceTemplateEntry = z.infer<typeof mcpResourceTemplateEntrySchema>;

export const mcpPromptEntrySchema = z.object({
  ...listedByServer,
  arguments: z.array(
    z.object({ name: text(200), description: text(2000).optional(), required: z.boolean().optional() }),
  ),
});
export type McpPromptEntry = z.infer<typeof mcpPromptEntrySchema>;

export const mcpCatalogSchema = z.object({
  resources: z.array(mcpResourceEntrySchema),
  templates: z.array(mcpResourceTemplateEntrySchema),
  prompts: z.array(mcpPromptEntrySchema),
  /** Servers whose lists could not be read, and why (the others are listed all the same). */
  errors: z.array(z.object({ server: z.string(), message: z.string() })),
});
export type McpCatalog = z.infer<typeof mcpCatalogSchema>;

/** A resource or prompt the user picked, as chat.send names it. */
export const mcpAttachmentRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('resource'), server: mcpServerIdSchema, uri: z.string().min(1).max(4000) }).strict(),
  z
    .object({
      kind: z.literal('prompt'),
      server: mcpServerIdSchema,
      name: z.string().min(1).max(500),
      arguments: z.record(z.string().min(1).max(200), z.string().max(10_000)).default({}),
    })
    .strict(),
]);
export type McpAttachmentRequest = z.infer<typeof mcpAttachmentRequestSchema>;

/**
 * What a user message keeps of one: the server it came from, what it was (a resource's URI, a
 * prompt's `/server:name`) and its text as the model is given it. The text is the server's, not the
 * user's: the model is told so, and a persona change after it names the server (provenance).
 */
export const mcpAttachmentSchema = z.object({
  kind: z.enum(['resource', 'prompt']),
  server: z.string(),
  label: z.string().max(4100),
  text: z.string().max(maxMcpAttachmentChars + 200),
});
export type McpAttachment = z.infer<typeof mcpAttachmentSchema>;

/** How a prompt is named in the composer and the transcript. */
export const promptCommand = (server: string, name: string): string => `/${server}:${name}`;

/** The `{variables}` of a resource template (RFC 6570 level 1, as the composer fills them). */
export const templateVariables = (uriTemplate: string): string[] => [
  ...new Set([...uriTemplate.matchAll(/\{([A-Za-z0-9_.]+)\}/g)].map((match) => match[1]!)),
];

/** A template with its variables filled in, each value percent-encoded. */
export const expandTemplate = (uriTemplate: string, values: Readonly<Record<string, string>>): string =>
  uriTemplate.replace(/\{([A-Za-z0-9_.]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
