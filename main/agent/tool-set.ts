import { dynamicTool, jsonSchema } from 'ai';
import type { ToolSet } from 'ai';
import type { ToolDescriptor, ToolExecutor } from '../tool-calls/tool-executor';
import { toolJsonSchema } from '../tool-calls/tool-schema';
import type { StoredToolResult } from '../domain/conversations/transcript-records';
import { toModelOutput } from './model-output';
import type { ModelOutputOptions } from './model-output';

/** Hears how far a long call is (a server's notifications/progress): the tool card shows it. */
export type ToolProgressListener = (toolCallId: string, done: number, total?: number, message?: string) => void;

/**
 * Turns the executor's tool list into AI SDK tools. Deliberately without the SDK's validation:
 * arguments reach the tool-call pipeline exactly as the model sent them, so it validates, audits
 * and answers `invalid_arguments` itself, and every call comes back as a Result value.
 */
export function buildToolSet(
  executor: ToolExecutor,
  conversationId: string,
  descriptors: readonly ToolDescriptor[],
  turnSignal: AbortSignal,
  output: ModelOutputOptions = {},
  onProgress?: ToolProgressListener,
): ToolSet {
  const tools: ToolSet = {};
  for (const descriptor of descriptors) {
    tools[descriptor.name] = dynamicTool({
      description: descriptor.description,
      inputSchema: jsonSchema(() => toolJsonSchema(descriptor)),
      execute: (args, { toolCallId, abortSignal }): Promise<StoredToolResult> =>
        executor.execute(
          { conversationId, toolCallId, name: descriptor.name, args },
          abortSignal ?? turnSignal,
          onProgress === undefined
            ? undefined
            : { progress: (done, total, message) => onProgress(toolCallId, done, total, message) },
        ),
      toModelOutput: ({ output: result }) => toModelOutput(result as StoredToolResult, output),
    });
  }
  return tools;
}
