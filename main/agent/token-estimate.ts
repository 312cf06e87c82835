import type { ModelMessage, ToolResultPart } from 'ai';
import { estimateTokens as estimateTextTokens } from '../../shared/token-estimate';

export { estimateTextTokens };

/** Role markers and message framing cost a few tokens per message in every chat format. */
const MESSAGE_OVERHEAD = 4;
const TOOL_CALL_OVERHEAD = 8;

const jsonTokens = (value: unknown) => estimateTextTokens(JSON.stringify(value) ?? '');

/**
 * What a picture costs, whatever its bytes: Anthropic scales images to about 1.15 megapixels,
 * (width × height) / 750 ≈ 1,600 tokens at most; OpenAI's high detail tops out near that too. Its
 * base64 is not text the model reads, so counting it as characters would overstate a 1 MB PNG
 * three-hundred-fold and make the budget drop everything else.
 */
export const IMAGE_TOKENS = 1_600;

type ContentOutput = Extract<ToolResultPart['output'], { type: 'content' }>['value'];

function contentTokens(parts: ContentOutput): number {
  let total = 0;
  for (const part of parts) {
    if (part.type === 'text') total += estimateTextTokens(part.text);
    else if (part.type === 'file' || part.type === 'file-data' || part.type === 'image-data') total += IMAGE_TOKENS;
    else total += jsonTokens(part);
  }
  return total;
}

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
            : output.type === 'content'
              ? contentTokens(output.value)
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
