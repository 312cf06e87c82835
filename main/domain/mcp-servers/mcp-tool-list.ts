import { z } from 'zod';
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/** Tool names the model providers accept (OpenAI: ^[a-zA-Z0-9_-]{1,64}$). */
const MODEL_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** A description longer than this is cut: it goes into every request's tool list. */
const MAX_DESCRIPTION_CHARS = 2000;

/** One server tool as the assistant is offered it: `server__tool`, its schema both checked and shown. */
export interface McpToolEntry {
  /** `<server id>__<tool name>`. */
  readonly name: string;
  readonly server: string;
  readonly tool: string;
  readonly title?: string;
  readonly description: string;
  readonly annotations: ToolAnnotations;
  /** The server's own JSON Schema, given to the model as is. */
  readonly jsonSchema: Record<string, unknown>;
  /** The same schema as a validator: the pipeline parses the model's arguments against it once. */
  readonly input: z.ZodType;
}

export interface SkippedTool {
  readonly tool: string;
  readonly reason: string;
}

/**
 * A server's tools as entries, each checked: a name the providers would refuse, or an input schema
 * that is not a JSON Schema object, leaves that one tool out with a note (never the whole server).
 */
export function toolEntries(
  server: string,
  tools: readonly unknown[],
): { entries: McpToolEntry[]; skipped: SkippedTool[] } {
  const entries: McpToolEntry[] = [];
  const skipped: SkippedTool[] = [];
  for (const raw of tools) {
    const named = (raw as { name?: unknown } | null)?.name;
    const parsed = ToolSchema.safeParse(raw);
    if (!parsed.success) {
      const where = parsed.error.issues[0];
      skipped.push({
        tool: typeof named === 'string' ? named : '(unnamed)',
        reason: `invalid input schema or fields: ${where?.path.join('.') ?? ''} ${where?.message ?? ''}`.trim(),
      });
      continue;
    }
    const tool = parsed.data;
    const name = `${server}__${tool.name}`;
    if (!MODEL_TOOL_NAME.test(name)) {
      skipped.push({
        tool: tool.name,
        reason: `${name} is not a name models accept (letters, digits, _ and -, at most 64)`,
      });
      continue;
    }
    const schema = tool.inputSchema as unknown;
    let input: z.ZodType;
    try {
      if (typeof schema !== 'object' || schema === null || (schema as { type?: unknown }).type !== 'object') {
        throw new Error('its input schema is not an object schema');
      }
      input = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    } catch (error) {
      skipped.push({
        tool: tool.name,
        reason: `invalid input schema: ${error instanceof Error ? error.message : String(error)}`,
      });
      continue;
    }
    const description = tool.description ?? tool.title ?? tool.name;
    entries.push({
      name,
      server,
      tool: tool.name,
      ...(tool.title === undefined ? {} : { title: tool.title }),
      description:
        description.length > MAX_DESCRIPTION_CHARS ? `${description.slice(0, MAX_DESCRIPTION_CHARS)}…` : description,
      annotations: tool.annotations ?? {},
      jsonSchema: schema as Record<string, unknown>,
      input,
    });
  }
  return { entries, skipped };
}
