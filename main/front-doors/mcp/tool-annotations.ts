import type { Tool as McpTool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { toolJsonSchema } from '../../tool-calls/tool-schema';
import type { AnyTool } from '../../tools/define-tool';

/**
 * A tool as an MCP client sees it, derived from its one definition (main/tools/<name>.ts): nothing
 * here is written per tool. The hints follow from the operations the policy decides on:
 *   readOnlyHint     every operation is 'read';
 *   destructiveHint  it changes something and the tool is not declared `additive` (only adds);
 *   idempotentHint   read-only, or declared `idempotent` (write_file, create_directory, delete_file);
 *   openWorldHint    declared `openWorld` (run_command: any program, the network).
 */
export function toolAnnotations(tool: AnyTool): ToolAnnotations {
  const readOnly = tool.operations.every((operation) => operation === 'read');
  return {
    title: toolTitle(tool.name),
    readOnlyHint: readOnly,
    destructiveHint: !readOnly && tool.additive !== true,
    idempotentHint: readOnly || tool.idempotent === true,
    openWorldHint: tool.openWorld === true,
  };
}

/** 'read_file' → 'Read file': the name a person reads in the client's tool list. */
export const toolTitle = (name: string): string => {
  const words = name.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * What structuredContent holds when a call fails (mcp-server.ts): the stable error code
 * (shared/errors.ts), a message, and details when the error has them.
 */
export const toolErrorJsonSchema = {
  type: 'object',
  properties: {
    code: { type: 'string', description: 'Stable error code, e.g. file_not_found, user_rejected.' },
    message: { type: 'string' },
    details: {},
  },
  required: ['code', 'message'],
  additionalProperties: false,
} as const;

/**
 * The JSON Schema of a successful result, from the zod schema that types the tool's run(): an
 * object, or one of several objects (read_file answers text, an image or a PDF, told apart by `kind`).
 */
export function resultJsonSchema(tool: AnyTool): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(tool.output, { io: 'output' });
  const members = schema['oneOf'];
  if (Array.isArray(members) && members.every((member: { type?: unknown }) => member.type === 'object'))
    return { type: 'object', ...schema };
  if (schema['type'] !== 'object') throw new Error(`${tool.name}: a tool's output schema must be an object`);
  return schema;
}

/**
 * outputSchema: the result's shape, or the typed error. Errors stay in structuredContent (clients
 * read their code there), and SDK clients validate structuredContent against outputSchema even when
 * isError is set (typescript-sdk#1943): an outputSchema without the error shape would make every
 * refusal a protocol error in such a client. The dialect is left implicit (2020-12 by the spec);
 * the keywords used mean the same in draft-07, which the SDK's validator speaks.
 */
export function toolOutputSchema(tool: AnyTool): McpTool['outputSchema'] {
  return { type: 'object', anyOf: [resultJsonSchema(tool), toolErrorJsonSchema] };
}

/** The tools/list entry: name, title, the model's words, input and output schemas, hints. */
export function mcpToolOf(tool: AnyTool): McpTool {
  return {
    name: tool.name,
    title: toolTitle(tool.name),
    description: tool.description,
    // The JSON Schema the chat model sees, from the same zod input.
    inputSchema: toolJsonSchema(tool) as McpTool['inputSchema'],
    outputSchema: toolOutputSchema(tool),
    annotations: toolAnnotations(tool),
  };
}
