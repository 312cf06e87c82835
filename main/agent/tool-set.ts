import { dynamicTool, jsonSchema, zodSchema } from 'ai';
import type { ToolSet } from 'ai';
import type { Result } from '../../shared/result';
import { capToolResult } from '../conversations/cap-tool-result';
import type { StoredToolResult } from '../conversations/transcript-records';
import { toModelOutput } from './model-output';
import type { ToolDescriptor, ToolExecutor } from './tool-executor';

/** The JSON Schema the model sees for a tool, derived from its zod input (as the AI SDK would). */
export const toolJsonSchema = (descriptor: ToolDescriptor) => zodSchema(descriptor.input).jsonSchema;

/**
 * Turns the executor's tool list into AI SDK tools. Deliberately without the SDK's validation:
 * arguments reach the executor exactly as the model sent them, so the registry validates, audits
 * and answers `invalid_arguments` itself. Every call returns a Result value; a throw from the
 * executor (a bug) becomes an internal_error result, so a tool can never end the turn.
 */
export function buildToolSet(
  executor: ToolExecutor,
  conversationId: string,
  descriptors: readonly ToolDescriptor[],
  turnSignal: AbortSignal,
): ToolSet {
  const tools: ToolSet = {};
  for (const descriptor of descriptors) {
    tools[descriptor.name] = dynamicTool({
      description: descriptor.description,
      inputSchema: jsonSchema(() => toolJsonSchema(descriptor)),
      execute: async (args, { toolCallId, abortSignal }): Promise<StoredToolResult> => {
        let result: Result<unknown>;
        try {
          result = await executor.execute(
            { conversationId, toolCallId, name: descriptor.name, args },
            abortSignal ?? turnSignal,
          );
        } catch (error) {
          result = {
            ok: false,
            error: {
              code: 'internal_error',
              message: `The tool failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
            },
          };
        }
        return capToolResult(result);
      },
      toModelOutput: ({ output }) => toModelOutput(output as StoredToolResult),
    });
  }
  return tools;
}
