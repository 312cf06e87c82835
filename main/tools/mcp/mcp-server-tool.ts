import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { McpToolEntry } from '../../domain/mcp-servers/mcp-tool-list';
import type { CallOptions } from '../../domain/mcp-servers/mcp-connection';
import type { AnyTool, Tool } from '../define-tool';

/** How a server tool is called: the manager's call (server ready, timeout, cancel, progress). */
export type McpCall = (
  server: string,
  tool: string,
  args: Record<string, unknown>,
  options: CallOptions,
) => Promise<Result<CallToolResult>>;

/** A server's calls may take longer than a file tool's: a minute, unless the user stops them. */
export const MCP_CALL_TIMEOUT_MS = 60_000;

const output = z.object({
  server: z.string(),
  tool: z.string(),
  /** The server's words: untrusted (the provenance of a later persona change names them). */
  untrusted: z.literal(true),
  text: z.string(),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
});

/** A result's parts as text: what the model reads (pictures and binary resources named, not inlined). */
function textOf(result: CallToolResult): string {
  return result.content
    .map((part) => {
      if (part.type === 'text') return part.text;
      if (part.type === 'image' || part.type === 'audio') return `[${part.type} ${part.mimeType} not shown]`;
      if (part.type === 'resource_link') return `[resource ${part.uri}${part.name ? ` (${part.name})` : ''}]`;
      if (part.type === 'resource') {
        return 'text' in part.resource ? part.resource.text : `[resource ${part.resource.uri}, binary, not shown]`;
      }
      return '[content not shown]';
    })
    .join('\n');
}

/**
 * One tool of a user's MCP server as a Familiar tool (issue 29): named `server__tool`, its schema
 * the server's own (checked once by the pipeline, given to the model as is), its call asked about
 * unless the user allowed it (tool-calls/decide.ts reads `mcp`), its output marked untrusted.
 */
export function mcpServerTool(entry: McpToolEntry, call: McpCall): AnyTool {
  const hints = entry.annotations;
  const tool: Tool<z.ZodType, z.infer<typeof output>> = {
    name: entry.name,
    description: `${entry.title === undefined ? '' : `${entry.title}: `}${entry.description} (tool of the user's MCP server "${entry.server}")`,
    input: entry.input,
    jsonSchema: entry.jsonSchema,
    output,
    operations: ['run'],
    openWorld: hints.openWorldHint !== false,
    ...(hints.idempotentHint === true ? { idempotent: true } : {}),
    returnsContent: true,
    mcp: {
      server: entry.server,
      tool: entry.tool,
      readOnly: hints.readOnlyHint === true,
      ...(entry.title === undefined ? {} : { title: entry.title }),
      annotations: { ...hints },
    },
    // A server's answer is outside content like an injected file: a persona change after it names it.
    contentSources: () => [`output of tool ${entry.tool} of MCP server "${entry.server}"`],
    timeoutMs: () => MCP_CALL_TIMEOUT_MS,
    access: () => [],
    async run(args, ctx) {
      const called = await call(entry.server, entry.tool, (args ?? {}) as Record<string, unknown>, {
        signal: ctx.signal,
        // The pipeline's guard ends the call at the same time; the SDK's own timer tells the server.
        timeoutMs: MCP_CALL_TIMEOUT_MS,
        // A question the server asks during the call (elicitation, sampling) is put in this conversation.
        ...(ctx.toolCallId === undefined
          ? {}
          : { context: { conversationId: ctx.conversationId, toolCallId: ctx.toolCallId, name: entry.name } }),
        ...(ctx.progress === undefined ? {} : { onProgress: ctx.progress }),
      });
      if (!called.ok) return called;
      const text = textOf(called.value);
      if (called.value.isError === true) {
        return err('mcp_tool_error', `${entry.name} answered with an error: ${text.slice(0, 4000)}`, {
          server: entry.server,
          tool: entry.tool,
        });
      }
      const structured = called.value.structuredContent;
      return ok({
        server: entry.server,
        tool: entry.tool,
        untrusted: true as const,
        text,
        ...(structured === undefined ? {} : { structuredContent: structured }),
      });
    },
  };
  return tool;
}
