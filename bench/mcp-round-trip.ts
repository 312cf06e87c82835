import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { createMcpServer } from '../main/front-doors/mcp/mcp-server';
import type { ToolCalls } from '../main/tool-calls/tool-calls';

/**
 * An MCP client and Familiar's MCP server in this process, every message serialized and parsed as
 * the stdio transport does (one JSON line each way), so a round trip costs what it costs over
 * stdio but for the pipe and a second process. The client validates results against the
 * advertised outputSchema, as SDK clients do once they have listed the tools.
 */
export async function mcpRoundTrip(toolCalls: ToolCalls) {
  const server = createMcpServer({ executor: toolCalls, version: 'bench', conversationId: 'bench' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  let bytes = 0;
  for (const side of [clientSide, serverSide]) {
    const send = side.send.bind(side);
    side.send = (message, options) => {
      const line = serializeMessage(message);
      bytes = line.length;
      return send(deserializeMessage(line.slice(0, -1)), options);
    };
  }
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '0.0.0' });
  await client.connect(clientSide);
  await client.listTools();
  return {
    /** Calls a tool; answers the characters of the last message (the result's JSON line). */
    call: async (name: string, args: Record<string, unknown>): Promise<number> => {
      const result = await client.callTool({ name, arguments: args });
      if (result.isError === true) throw new Error(`${name}: ${JSON.stringify(result.structuredContent)}`);
      return bytes;
    },
    close: () => client.close(),
  };
}
