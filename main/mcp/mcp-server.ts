import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolExecutor } from '../agent/tool-executor';

export interface McpServerOptions {
  readonly executor: ToolExecutor;
  readonly version: string;
  /** Every MCP call belongs to this conversation: rate limits, audit and read tracking use it. */
  readonly conversationId: string;
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };

/**
 * Familiar's tools over the Model Context Protocol: the same registry, so the same sandbox,
 * policy, rate limit and audit log as the chat. Results carry the tool's object as
 * structuredContent plus a text rendering; failures are isError with {code, message}.
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const server = new McpServer({ name: 'familiar', version: options.version });
  for (const tool of options.executor.list(options.conversationId)) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: tool.input },
      async (args: unknown, extra): Promise<CallToolResult> => {
        const result = await options.executor.execute(
          { conversationId: options.conversationId, toolCallId: randomUUID(), name: tool.name, args },
          extra.signal,
        );
        if (result.ok) {
          const structured = asRecord(result.value);
          return {
            content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }],
            structuredContent: structured,
          };
        }
        const { code, message } = result.error;
        return {
          isError: true,
          content: [{ type: 'text', text: `${code}: ${message}` }],
          structuredContent: {
            code,
            message,
            ...(result.error.details === undefined ? {} : { details: result.error.details }),
          },
        };
      },
    );
  }
  return server;
}
