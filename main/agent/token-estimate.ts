import type { ModelMessage } from 'ai';
import { estimateTokens as estimateTextTokens } from '../../shared/token-estimate';

export { estimateTextTokens };

/** Role markers and message framing cost a few tokens per message in every chat format. */
const MESSAGE_OVERHEAD = 4;
const TOOL_CALL_OVERHEAD = 8;

const jsonTokens = (value: unknown) => estimateTextTokens(JSON.stringify(value) ?? '');

export function estimateMessageTokens(message: ModelMessage): number {
  if (typeof message.content === 'string') return MESSAGE_OVERHEAD + estimateTextTokens(message.content);
  let total = MESSAGE_OVERHEAD;
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
      case 'reasoning':
        total += estimateTextTokens(part.text);
        break;
      case 'tool-call':
        total += TOOL_CALL_OVERHEAD + estimateTextTokens(part.toolName) + jsonTokens(part.input);
        break;
      case 'tool-result': {
        const output = part.output;
        total +=
          TOOL_CALL_OVERHEAD +
          (output.type === 'text' || output.type === 'error-text'
            ? estimateTextTokens(output.value)
            : jsonTokens('value' in output ? output.value : output));
        break;
      }
      default:
        total += jsonTokens(part);
    }
  }
  return total;
}

export const estimateMessagesTokens = (messages: readonly ModelMessage[]): number =>
  messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
