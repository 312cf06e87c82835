import { experimental_streamTextLowMemory as streamText } from 'ai';
import type { LanguageModel } from 'ai';
import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import { samplingText } from '../domain/mcp-servers/mcp-server-questions';

/**
 * A server's sampling/createMessage, approved by the user, answered by the conversation's model:
 * the server's system prompt and messages only (no persona, no memory, no tools), at most
 * `maxTokens` tokens, stopped with the request. Streamed like a turn (the providers' one path).
 */
export async function runSampling(
  model: LanguageModel,
  params: CreateMessageRequest['params'],
  maxTokens: number,
  signal: AbortSignal,
): Promise<CreateMessageResult> {
  const result = streamText({
    model,
    ...(params.systemPrompt === undefined ? {} : { instructions: params.systemPrompt }),
    messages: params.messages.map((message) => ({ role: message.role, content: samplingText(message.content) })),
    maxOutputTokens: maxTokens,
    ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
    ...(params.stopSequences === undefined ? {} : { stopSequences: params.stopSequences }),
    maxRetries: 0,
    abortSignal: signal,
    onError: () => undefined,
  });
  let text = '';
  let finishReason: string | undefined;
  for await (const part of result.stream) {
    if (part.type === 'text-delta') text += part.text;
    else if (part.type === 'finish') finishReason = part.finishReason;
    else if (part.type === 'error') throw part.error instanceof Error ? part.error : new Error(String(part.error));
    else if (part.type === 'abort') throw new Error('The sampling request was cancelled.');
  }
  return {
    role: 'assistant',
    content: { type: 'text', text },
    model: typeof model === 'string' ? model : model.modelId,
    stopReason: finishReason === 'length' ? 'maxTokens' : 'endTurn',
  };
}
