import { FILE_HEADERS_ONLY, createTwoFilesPatch, formatPatch, structuredPatch } from 'diff';

/** Lines of context around each change, as `diff -u`. */
export const contextLines = 3;

/** Start of the line holding `offset`, moved up `lines` more lines. */
const lineStartBefore = (text: string, offset: number, lines: number) => {
  let at = text.lastIndexOf('\n', offset - 1) + 1;
  for (let k = 0; k < lines && at > 0; k += 1) at = at < 2 ? 0 : text.lastIndexOf('\n', at - 2) + 1;
  return at;
};

/** End (after the newline) of the line holding `offset`, moved down `lines` more lines. */
const lineEndAfter = (text: string, offset: number, lines: number) => {
  let at = offset;
  for (let k = 0; k <= lines; k += 1) {
    const next = text.indexOf('\n', at);
    if (next === -1) return text.length;
    at = next + 1;
  }
  return at;
};

const countLines = (text: string, from: number, end: number) => {
  let lines = 0;
  for (let at = text.indexOf('\n', from); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) lines += 1;
  return lines;
};

const withoutCr = (text: string) => text.replaceAll('\r\n', '\n');

/**
 * The unified diff of replacing [start, end) of `before` with `replacement`, computed on the
 * changed region only (a few lines of context): a 5 MB file does not get diffed whole for a
 * one-line edit. `startLine` is the 1-based line where `start` is.
 */
export function spliceDiff(
  display: string,
  before: string,
  start: number,
  end: number,
  replacement: string,
  startLine: number,
): string {
  const from = lineStartBefore(before, start, contextLines);
  const to = lineEndAfter(before, end, contextLines);
  // The new excerpt is built from the old one: the 5 MB result string is never scanned.
  const excerptBefore = before.slice(from, to);
  const excerptAfter = before.slice(from, start) + replacement + before.slice(end, to);
  const patch = structuredPatch(
    display,
    display,
    withoutCr(excerptBefore),
    withoutCr(excerptAfter),
    undefined,
    undefined,
    { context: contextLines },
  );
  // Lines before the excerpt: known from the span's line, so a big file is not counted again.
  const offset = startLine - 1 - countLines(before, from, start);
  for (const hunk of patch.hunks) {
    hunk.oldStart += offset;
    hunk.newStart += offset;
  }
  return formatPatch(patch, FILE_HEADERS_ONLY);
}

/** The diff of two whole texts (used when the user rewrote the proposal in the approval dialog). */
export function wholeDiff(display: string, before: string, after: string): string {
  return createTwoFilesPatch(display, display, withoutCr(before), withoutCr(after), undefined, undefined, {
    context: contextLines,
  })
    .split('\n')
    .filter((line) => !line.startsWith('Index:') && !line.startsWith('===='))
    .join('\n');
}
