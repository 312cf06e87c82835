import type { JSONValue, ToolResultPart } from 'ai';
import { splitToolImage } from '../../shared/tool-image';
import type { StoredToolResult } from '../domain/conversations/transcript-records';

type ToolResultOutput = ToolResultPart['output'];

export interface ModelOutputOptions {
  /**
   * The model can be shown a picture inside a tool result (domain/providers/language-model.ts,
   * toolResultImages). When it cannot, an image result reaches it as its facts and a sentence
   * saying it was not shown, never as base64 text and never silently dropped.
   */
  readonly images?: boolean;
}

const notShown =
  'The picture itself is not shown to you: this model connection takes text only in tool results. ' +
  'Tell the user you cannot see it here; the facts above are all you know of it.';

/**
 * What the model reads for a tool Result, the same live and when the history is rebuilt from the
 * transcript: text values as plain text (no JSON escaping of file contents), other values as JSON,
 * failures as `{ok: false, error: {code, message}}` flagged as an error (Anthropic's is_error), an
 * image result (shared/tool-image.ts) as its facts plus the picture as an image part.
 */
export function toModelOutput(result: StoredToolResult, options: ModelOutputOptions = {}): ToolResultOutput {
  if (!result.ok) {
    return {
      type: 'error-json',
      value: { ok: false, error: { code: result.error.code, message: result.error.message } },
    };
  }
  if (typeof result.value === 'string') return { type: 'text', value: result.value };
  const split = splitToolImage(result.value);
  if (split !== undefined) {
    const { image, facts } = split;
    if (options.images !== true) return { type: 'json', value: { ...facts, notice: notShown } as JSONValue };
    return {
      type: 'content',
      value: [
        { type: 'text', text: JSON.stringify(facts) },
        { type: 'file', mediaType: image.mime, data: { type: 'data', data: image.data } },
      ],
    };
  }
  return { type: 'json', value: (result.value ?? null) as JSONValue };
}
