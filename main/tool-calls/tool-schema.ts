import { z } from 'zod';
import type { ToolDescriptor } from './tool-executor';

type JsonSchema = Record<string, unknown>;

/**
 * Objects take no properties but their own (`additionalProperties: false`, unless a schema is given
 * for them), at every depth: what the AI SDK's zodSchema does to zod's JSON Schema, which the chat
 * model and MCP clients have always been shown (tool-schema.test.ts holds the two equal).
 */
function closeObjects(schema: JsonSchema): JsonSchema {
  const visit = (value: unknown): unknown =>
    typeof value === 'boolean' || value === null || typeof value !== 'object'
      ? value
      : closeObjects(value as JsonSchema);
  const type = schema['type'];
  if (type === 'object' || (Array.isArray(type) && type.includes('object'))) {
    const extra = schema['additionalProperties'];
    schema['additionalProperties'] = extra != null && typeof extra !== 'boolean' ? visit(extra) : false;
    const properties = schema['properties'] as JsonSchema | undefined;
    if (properties != null) for (const key of Object.keys(properties)) properties[key] = visit(properties[key]);
  }
  const items = schema['items'];
  if (items != null) schema['items'] = Array.isArray(items) ? items.map(visit) : visit(items);
  for (const key of ['anyOf', 'allOf', 'oneOf']) {
    const list = schema[key];
    if (Array.isArray(list)) schema[key] = list.map(visit);
  }
  const definitions = schema['definitions'] as JsonSchema | undefined;
  if (definitions != null) for (const key of Object.keys(definitions)) definitions[key] = visit(definitions[key]);
  return schema;
}

/**
 * The JSON Schema a tool's caller sees (the chat model, an MCP client), derived from its zod input:
 * draft-7, the input side, reused parts inline, objects closed. Made here rather than with the AI
 * SDK's zodSchema, so the MCP server's start does not load the AI SDK (~70 ms).
 */
export const toolJsonSchema = (descriptor: ToolDescriptor): JsonSchema =>
  descriptor.jsonSchema ??
  closeObjects(z.toJSONSchema(descriptor.input, { target: 'draft-7', io: 'input', reused: 'inline' }));
