import { zodSchema } from 'ai';
import type { ToolDescriptor } from './tool-executor';

/** The JSON Schema a tool's caller sees (the chat model, an MCP client), derived from its zod input. */
export const toolJsonSchema = (descriptor: ToolDescriptor) =>
  descriptor.jsonSchema ?? zodSchema(descriptor.input).jsonSchema;
