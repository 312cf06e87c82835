/**
 * A tool that counts its own answer as it builds it (list_files stops below the result cap) can
 * say how long the answer's JSON is at most, so the run stage's cap (tool-calls/cap-result.ts)
 * need not stringify megabytes of JSON only to measure them: that stringify was ~15 % of a 30k-entry
 * listing's time (issue 16's profile). A bound must never be low; the cap trusts it.
 */
const bounds = new WeakMap<object, number>();

/**
 * Room a tool that stops its answer below the result cap (list_files, search_in_code) leaves for
 * everything but its list: the path or query, the counts, the notice.
 */
export const RESULT_HEADROOM_CHARS = 1000;

/** Records that `JSON.stringify(value).length <= chars` and answers the value. */
export function withResultBound<T extends object>(value: T, chars: number): T {
  bounds.set(value, chars);
  return value;
}

/** The bound a tool recorded for this value, if any. */
export function resultBound(value: unknown): number | undefined {
  return typeof value === 'object' && value !== null ? bounds.get(value) : undefined;
}

/** Characters JSON escapes (quote, backslash, controls) or may (lone surrogates: well-formed JSON.stringify). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what JSON escapes
const needsEscape = /["\\\u0000-\u001f\ud800-\udfff]/;

/** JSON writes the text as is between its quotes: nothing in it is escaped. */
export const isPlainJsonText = (text: string): boolean => !needsEscape.test(text);

/** Exactly `JSON.stringify(text).length`, without building the string for plain text. */
export function jsonStringChars(text: string): number {
  return needsEscape.test(text) ? JSON.stringify(text).length : text.length + 2;
}
