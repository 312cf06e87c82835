import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Result } from '../../../shared/result';
import { splitToolImage } from '../../../shared/tool-image';
import type { ToolCalls } from '../../tool-calls/tool-calls';
import { elicitationApprover } from './elicitation-approver';
import { progressReporter } from './progress';
import { mcpToolOf } from './tool-annotations';

export interface McpServerOptions {
  readonly executor: ToolCalls;
  readonly version: string;
  /** Every MCP call belongs to this conversation: rate limits, audit and read tracking use it. */
  readonly conversationId: string;
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };

/**
 * A tool's Result as MCP content: the object as structuredContent plus, as the spec asks for
 * clients that read only text, the same object serialized. Compact JSON: indented, a 30k-entry
 * listing grew from 3.4 to 4.5 MB and took several times as long to write (and the transport
 * escapes it again into the message). An image result (shared/tool-image.ts) is its facts there
 * and the picture as image content, so its base64 travels once and a client shows it as a picture.
 */
function toCallToolResult(result: Result<unknown>): CallToolResult {
  if (result.ok) {
    const split = splitToolImage(result.value);
    const structured = split?.facts ?? asRecord(result.value);
    const text = { type: 'text' as const, text: JSON.stringify(structured) };
    if (split === undefined) return { content: [text], structuredContent: structured };
    const picture = { type: 'image' as const, data: split.image.data, mimeType: split.image.mime };
    return { content: [text, picture], structuredContent: structured };
  }
  const { code, message, details } = result.error;
  return {
    isError: true,
    content: [{ type: 'text', text: `${code}: ${message}` }],
    structuredContent: { code, message, ...(details === undefined ? {} : { details }) },
  };
}

/**
 * Familiar's tools over the Model Context Protocol: the same tool-call pipeline, so the same sandbox,
 * policy, rate limit and audit log as the chat. Results carry the tool's object as
 * structuredContent plus a text rendering; failures are isError with {code, message}.
 *
 * Built on the SDK's low-level Server rather than McpServer on purpose: McpServer validates
 * arguments and looks tools up itself and answers bad calls with a bare text error, which would
 * bypass the pipeline. Here, as in the chat (agent/tool-set.ts), the call reaches the pipeline as
 * sent, so unknown tools and invalid arguments get their stable codes and an audit line too.
 */
export function createMcpServer(options: McpServerOptions): Server {
  const server = new Server({ name: 'familiar', version: options.version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    // The same list the chat's next turn gets (code tools only with a language server for the workspace).
    await options.executor.refreshList?.();
    // Title, hints and outputSchema come from each tool's own definition (tool-annotations.ts).
    return { tools: options.executor.registered(options.conversationId).map(mcpToolOf) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const call = {
      conversationId: options.conversationId,
      toolCallId: randomUUID(),
      name: request.params.name,
      args: request.params.arguments ?? {},
    };
    // The pipeline answers every call with a Result, exceptions included (tool-calls/call-errors.ts).
    // The client's cancel aborts extra.signal; its user approves through elicitation when it can.
    const approver = elicitationApprover(server, extra.requestId);
    const progress = progressReporter(request.params._meta?.progressToken, extra.sendNotification);
    return toCallToolResult(
      await options.executor.execute(call, extra.signal, {
        ...(approver === undefined ? {} : { approver }),
        ...(progress === undefined ? {} : { progress }),
      }),
    );
  });
  return server;
}
