import type { AssistantContent, ModelMessage, ToolResultPart } from 'ai';
import type { FoldedAttempt, FoldedConversation } from '../domain/conversations/transcript-fold';
import type { StoredToolResult } from '../domain/conversations/transcript-records';
import { toModelOutput } from './model-output';
import type { ModelOutputOptions } from './model-output';
import { userContent } from './user-content';
import type { UserImages } from './user-content';

/** What the model is told for a call that never answered: the turn was stopped or Familiar died. */
export const unansweredResult: StoredToolResult = {
  ok: false,
  error: {
    code: 'aborted',
    message: 'This tool call was interrupted before it finished; it may or may not have taken effect.',
  },
};

function stepMessages(attempt: FoldedAttempt, onlyToolSteps: boolean, output: ModelOutputOptions): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (const step of attempt.steps) {
    const hasTools = step.parts.some((part) => part.type === 'tool');
    if (onlyToolSteps && !hasTools) continue;
    const content: Exclude<AssistantContent, string> = [];
    const results: ToolResultPart[] = [];
    for (const part of step.parts) {
      if (part.type === 'text') {
        if (part.text.trim() !== '') content.push({ type: 'text', text: part.text });
        continue;
      }
      const { call } = part;
      content.push({ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.name, input: call.args ?? {} });
      results.push({
        type: 'tool-result',
        toolCallId: call.toolCallId,
        toolName: call.name,
        output: toModelOutput(call.result ?? unansweredResult, output),
      });
    }
    if (content.length > 0) messages.push({ role: 'assistant', content });
    if (results.length > 0) messages.push({ role: 'tool', content: results });
  }
  return messages;
}

/**
 * The conversation as the model sees it, rebuilt from the transcript. Each user message is followed
 * by its answer. When an answer was retried, the superseded attempts keep only their tool steps (the
 * model must know what it already did to files) and drop their text; the last attempt keeps all.
 * `supersedeLast` is set when building the request of a retry: the failed attempt is then superseded too;
 * `images` when the model can be shown pictures in tool results (model-output.ts); `userImages`, the
 * bytes of the pictures attached to user messages (user-content.ts: without them, each is a sentence).
 */
export function toModelMessages(
  conversation: FoldedConversation,
  options: { supersedeLast?: boolean; userImages?: UserImages } & ModelOutputOptions = {},
): ModelMessage[] {
  const messages: ModelMessage[] = [];
  const seen = options.userImages ?? { vision: false, bytes: new Map() };
  conversation.exchanges.forEach((exchange, exchangeIndex) => {
    messages.push({ role: 'user', content: userContent(exchange.text, exchange.images, seen, exchange.attachments) });
    const isLastExchange = exchangeIndex === conversation.exchanges.length - 1;
    exchange.attempts.forEach((attempt, attemptIndex) => {
      const isLastAttempt = attemptIndex === exchange.attempts.length - 1;
      const superseded = !isLastAttempt || (isLastExchange && options.supersedeLast === true);
      messages.push(...stepMessages(attempt, superseded, options));
    });
  });
  return messages;
}
