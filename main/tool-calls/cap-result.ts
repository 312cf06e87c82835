import type { Result } from '../../shared/result';
import { splitToolImage } from '../../shared/tool-image';
import { resultBound } from '../tools/kit/result-bound';
import { defaultToolLimits } from '../tools/kit/tool-limits';

/**
 * The most of one tool value that is kept (transcript) and sent back to the model. Tools cap their
 * own output below this (~50 KB; list_files stops at it); this is the backstop that keeps one
 * runaway value from bloating every later request and the transcript.
 */
export const TOOL_RESULT_CAP_CHARS = defaultToolLimits.maxResultChars;

export function capToolResult(result: Result<unknown>, cap: number = TOOL_RESULT_CAP_CHARS): Result<unknown> {
  if (!result.ok) return result;
  const { value } = result;
  if (typeof value === 'string') {
    return value.length <= cap
      ? result
      : { ok: true, value: `${value.slice(0, cap)}\n[Truncated: ${value.length - cap} more characters were cut.]` };
  }
  // A tool that measured its own answer (result-bound.ts) spares us stringifying it just to measure.
  const bound = resultBound(value);
  if (bound !== undefined && bound <= cap) return result;
  // A picture's bytes are not text in the context (an image part costs its own, bounded tokens, and
  // read_file caps their size): the cap weighs the facts beside them.
  const json = JSON.stringify(splitToolImage(value)?.facts ?? value);
  if (json === undefined || json.length <= cap) return result;
  return {
    ok: true,
    value: `${json.slice(0, cap)}\n[Truncated: the JSON result had ${json.length - cap} more characters.]`,
  };
}
