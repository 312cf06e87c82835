import type { JSONValue, ToolResultPart } from 'ai';
import type { StoredToolResult } from '../domain/conversations/transcript-records';

type ToolResultOutput = ToolResultPart['output'];

/**
 * What the model reads for a tool Result, the same live and when the history is rebuilt from the
 * transcript: text values as plain text (no JSON escaping of file contents), other values as JSON,
 * failures as `{ok: false, error: {code, message}}` flagged as an error (Anthropic's is_error).
 */
export function toModelOutput(result: StoredToolResult): ToolResultOutput {
  if (!result.ok) {
    return {
      type: 'error-json',
      value: { ok: false, error: { code: result.error.code, message: result.error.message } },
    };
  }
  if (typeof result.value === 'string') return { type: 'text', value: result.value };
  return { type: 'json', value: (result.value ?? null) as JSONValue };
}
