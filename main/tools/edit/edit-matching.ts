import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';

/**
 * Where an edit goes and what the file becomes. Fuzzy matching only LOCATES the span (pi rewrote
 * the whole file in normalized form; we never do): the span is mapped back to offsets in the
 * original text and spliced, so every byte outside it stays as it was.
 */
export interface EditPlan {
  /** Span in the original text (BOM already stripped), [start, end). */
  readonly start: number;
  readonly end: number;
  readonly replacement: string;
  readonly after: string;
  /** How the span was found: 'exact', 'normalized' (quotes, dashes, spaces, trailing blanks), 'whitespace'. */
  readonly matchedBy: 'exact' | 'normalized' | 'whitespace';
  /** 1-based lines of the span in the original. */
  readonly startLine: number;
  readonly endLine: number;
}

type Level = 'normalized' | 'whitespace';

const quoteMap: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u201f': '"',
  '\u2033': '"',
  '\u00ab': '"',
  '\u00bb': '"',
};

function foldChar(char: string): string {
  const mapped = quoteMap[char];
  if (mapped !== undefined) return mapped;
  const code = char.codePointAt(0)!;
  if ((code >= 0x2010 && code <= 0x2015) || code === 0x2212) return '-';
  if (code === 0x00a0 || code === 0x202f || code === 0x205f || code === 0x3000 || (code >= 0x2000 && code <= 0x200a))
    return ' ';
  return code < 0x80 ? char : char.normalize('NFKC');
}

interface Folded {
  readonly text: string;
  /** For each UTF-16 unit of `text`: where its source starts and ends in the input. */
  readonly from: Int32Array;
  readonly to: Int32Array;
}

/** Characters that may fold: blanks, controls and everything outside ASCII. Runs of others are copied. */
const foldable = /[^\x21-\x7e\n]/g;

/**
 * The fuzzy form of a text, with a map back to the input: quotes, dashes and odd spaces folded to
 * ASCII, NFKC, trailing blanks of each line dropped; at the 'whitespace' level every run of blanks
 * (indentation included) becomes one space.
 */
function fold(input: string, level: Level): Folded {
  const parts: string[] = [];
  let from = new Int32Array(input.length + 16);
  let to = new Int32Array(input.length + 16);
  let n = 0;
  const room = (extra: number) => {
    if (n + extra <= from.length) return;
    const size = Math.max(from.length * 2, n + extra);
    const grownFrom = new Int32Array(size);
    const grownTo = new Int32Array(size);
    grownFrom.set(from);
    grownTo.set(to);
    from = grownFrom;
    to = grownTo;
  };
  const emit = (text: string, start: number, end: number) => {
    room(text.length);
    parts.push(text);
    for (let k = 0; k < text.length; k += 1, n += 1) {
      from[n] = start;
      to[n] = end;
    }
  };
  const copy = (start: number, end: number) => {
    room(end - start);
    parts.push(input.slice(start, end));
    for (let i = start; i < end; i += 1, n += 1) {
      from[n] = i;
      to[n] = i + 1;
    }
  };
  let blank: { start: number; end: number; text: string } | undefined;
  // Blanks are held back until the next character: before a newline (or the end) they are trailing
  // and dropped, otherwise they are kept (as one space at the 'whitespace' level).
  const settleBlank = (nextIsNewline: boolean) => {
    if (blank !== undefined && !nextIsNewline) {
      if (level === 'whitespace') emit(' ', blank.start, blank.end);
      else for (let k = 0; k < blank.text.length; k += 1) emit(blank.text[k]!, blank.start + k, blank.start + k + 1);
    }
    blank = undefined;
  };
  let at = 0;
  foldable.lastIndex = 0;
  for (let match = foldable.exec(input); ; match = foldable.exec(input)) {
    const runEnd = match === null ? input.length : match.index;
    if (runEnd > at) {
      settleBlank(input[at] === '\n');
      copy(at, runEnd);
    }
    if (match === null) break;
    const code = input.codePointAt(runEnd)!;
    const char = String.fromCodePoint(code);
    const next = runEnd + char.length;
    const folded = foldChar(char);
    if (folded === ' ' || folded === '\t') {
      if (blank === undefined) blank = { start: runEnd, end: next, text: folded };
      else {
        blank.end = next;
        blank.text += folded;
      }
    } else {
      settleBlank(false);
      emit(folded, runEnd, next);
    }
    at = next;
    foldable.lastIndex = next;
  }
  return { text: parts.join(''), from: from.subarray(0, n), to: to.subarray(0, n) };
}

function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) found.push(at);
  return found;
}

/** 1-based line numbers of ascending offsets, in one pass. */
function linesAt(text: string, offsets: readonly number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let scanned = 0;
  for (const offset of offsets) {
    for (let at = text.indexOf('\n', scanned); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) {
      line += 1;
      scanned = at + 1;
    }
    lines.push(line);
  }
  return lines;
}

const lineAt = (text: string, offset: number) => linesAt(text, [offset])[0]!;

/** Offsets in a CRLF text for offsets in its LF-normalized copy. */
function crlfMapper(original: string): (offset: number) => number {
  const removed: number[] = []; // LF-copy offsets of each '\n' that had a '\r' before it
  for (let at = original.indexOf('\r\n'), k = 0; at !== -1; at = original.indexOf('\r\n', at + 2), k += 1)
    removed.push(at - k);
  return (offset) => {
    let low = 0;
    let high = removed.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (removed[mid]! < offset) low = mid + 1;
      else high = mid;
    }
    return offset + low;
  };
}

function multiple(count: number, lines: number[], how: string): Result<never> {
  const shown = lines.slice(0, 10).join(', ') + (lines.length > 10 ? ', …' : '');
  return err(
    'multiple_matches',
    `oldText matches ${count} places${how} (lines ${shown}). Include more surrounding lines in oldText so it matches exactly one place.`,
    { count, lines },
  );
}

/**
 * Plans replacing `oldText` with `newText` in `original`: exact match first, then a normalized one,
 * then a whitespace-tolerant one; each must be unique. CRLF files are matched as LF and the
 * replacement gets the span's line endings back.
 */
export function planEdit(original: string, oldText: string, newText: string): Result<EditPlan> {
  if (oldText === '')
    return err(
      'invalid_arguments',
      'oldText is empty. Give the exact text to replace (use write_file to write a whole file).',
    );
  const hasCrlf = original.includes('\r\n');
  const lf = hasCrlf ? original.replaceAll('\r\n', '\n') : original;
  const toOriginal = hasCrlf ? crlfMapper(original) : (offset: number) => offset;
  const oldLf = oldText.replaceAll('\r\n', '\n');
  const newLf = newText.replaceAll('\r\n', '\n');

  let span: { start: number; end: number; matchedBy: EditPlan['matchedBy'] } | undefined;
  const exact = occurrences(lf, oldLf);
  if (exact.length > 1) return multiple(exact.length, linesAt(lf, exact), '');
  if (exact.length === 1) span = { start: exact[0]!, end: exact[0]! + oldLf.length, matchedBy: 'exact' };

  for (const level of ['normalized', 'whitespace'] as const) {
    if (span !== undefined) break;
    const needle = fold(oldLf, level).text;
    if (needle.trim() === '') continue;
    const haystack = fold(lf, level);
    const found = occurrences(haystack.text, needle);
    if (found.length > 1) {
      return multiple(
        found.length,
        linesAt(
          lf,
          found.map((at) => haystack.from[at]!),
        ),
        ` after normalizing ${level === 'whitespace' ? 'whitespace' : 'quotes, dashes and spaces'}`,
      );
    }
    if (found.length === 1) {
      const at = found[0]!;
      span = { start: haystack.from[at]!, end: haystack.to[at + needle.length - 1]!, matchedBy: level };
    }
  }
  if (span === undefined) return err('no_match', 'oldText was not found.');

  const start = toOriginal(span.start);
  const end = toOriginal(span.end);
  const old = original.slice(start, end);
  // The replacement takes the span's line endings (the file's, when the span has no newline).
  const firstNewline = original.indexOf('\n');
  const fileCrlf = firstNewline > 0 && original[firstNewline - 1] === '\r';
  const crlf = old.includes('\n') ? old.includes('\r\n') : fileCrlf;
  const replacement = crlf ? newLf.replaceAll('\n', '\r\n') : newLf;
  if (replacement === old)
    return err('no_change', 'newText is the same as the text it would replace; the file is unchanged. Nothing to do.');
  const after = original.slice(0, start) + replacement + original.slice(end);
  const startLine = lineAt(original, start);
  return ok({
    start,
    end,
    replacement,
    after,
    matchedBy: span.matchedBy,
    startLine,
    endLine: startLine + (old.match(/\n/g)?.length ?? 0),
  });
}
