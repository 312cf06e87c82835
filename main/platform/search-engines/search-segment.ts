import type { NewlineScanner } from '../disk/newline-scan';
import { countFileNewlines } from './search-file-reads';
import { columnOf, shownLine } from './search-lines';
import { shownUtf8Line } from './search-line-window';
import type { FindIn } from './search-matchers';
import { countNewlines, indexOfNl, lastIndexOfNl } from './fs-worker-text';
import type { Text } from './fs-worker-text';
import type { SearchHit, SearchSpec } from './search-types';

/** One file being searched, segment after segment. */
export interface FileState {
  readonly fd: number;
  readonly hits: SearchHit[];
  count: number;
  countedOffset: number; // file offset up to which newlines are counted
  countedLine: number; // line number at countedOffset
  tail: string[]; // last lines of the previous segment (before-context)
  waiting: SearchHit[]; // hits still missing after-context lines
}

export const newFileState = (fd: number): FileState => ({
  fd,
  hits: [],
  count: 0,
  countedOffset: 0,
  countedLine: 1,
  tail: [],
  waiting: [],
});

export interface SegmentSearch {
  readonly spec: SearchSpec;
  readonly findIn: FindIn;
  /** Matches to describe per file; the rest are only counted. */
  readonly maxDetails: number;
  /**
   * Counts the newlines of segments in its memory 16 bytes at a time (a hit's line number): Buffer.indexOf
   * once per line took a third of describing 315 hits in 118 MB of an npm tree's files.
   */
  readonly newlines?: NewlineScanner;
}

/**
 * One segment of a file: whole lines, `seg` its bytes and `text` what the matcher runs on (the
 * bytes themselves, their latin1 string, or decoded text when `decoded`).
 */
export function scanSegment(
  search: SegmentSearch,
  state: FileState,
  seg: Buffer,
  text: Text,
  decoded: boolean,
  fileOffset: number,
  atEnd: boolean,
): void {
  const { spec, findIn, newlines } = search;
  const length = text.length;
  const utf8 = newlines?.utf8;
  const slice = (a: number, b: number) => (decoded ? (text as string).slice(a, b) : seg.toString('utf8', a, b));
  const lineAt = (start: number, end: number, focus: number) => {
    const firstOfFile = start === 0 && fileOffset === 0;
    const counted = decoded ? undefined : shownUtf8Line(seg, start, end, focus, spec.maxLineChars, firstOfFile, utf8);
    if (counted !== undefined) return counted;
    const column = columnOf(slice(start, focus));
    return { text: shownLine(slice(start, end), column, spec.maxLineChars, firstOfFile), column };
  };
  const plain = (start: number, end: number) => lineAt(start, end, start).text;
  // A latin1 string has the bytes' offsets: its newlines are the segment's.
  const linesIn = (from: number, to: number) =>
    decoded || newlines === undefined ? countNewlines(text, from, to) : newlines.count(seg, from, to);

  if (state.waiting.length > 0) {
    let at = 0;
    for (let taken = 0; taken < spec.contextLines && at < length; taken += 1) {
      const end = indexOfNl(text, at);
      const stop = end === -1 ? length : end;
      const line = plain(at, stop);
      for (const hit of state.waiting) if (hit.after.length < spec.contextLines) hit.after.push(line);
      at = stop + 1;
    }
    state.waiting = [];
  }

  let segCounted = 0; // offset in `text` up to which newlines are counted
  let segLine = -1; // line number at segCounted, once known
  for (let pos = 0; pos < length;) {
    const at = findIn(text, pos, decoded);
    // An empty match after the segment's last newline is on no line of this segment (the next
    // segment's first line, or none at the end of the file): grep and ripgrep do not count it.
    if (at === -1 || (at === length && indexOfNl(text, length - 1) === length - 1)) break;
    const start = lastIndexOfNl(text, at - 1) + 1;
    let end = indexOfNl(text, at);
    if (end === -1) end = length;
    state.count += 1;
    if (state.hits.length < search.maxDetails) {
      if (segLine === -1) {
        if (state.countedOffset < fileOffset) {
          state.countedLine += countFileNewlines(state.fd, state.countedOffset, fileOffset);
          state.countedOffset = fileOffset;
        }
        segLine = state.countedLine;
      }
      segLine += linesIn(segCounted, start);
      segCounted = start;
      const { text: shown, column } = lineAt(start, end, at);
      const before: string[] = [];
      for (let k = 0, to = start - 1; k < spec.contextLines; k += 1) {
        if (to < 0) {
          before.unshift(...state.tail.slice(Math.max(0, state.tail.length - (spec.contextLines - k))));
          break;
        }
        const from = lastIndexOfNl(text, to - 1) + 1;
        before.unshift(plain(from, to));
        to = from - 1;
      }
      const after: string[] = [];
      for (let k = 0, from = end + 1; k < spec.contextLines && from < length; k += 1) {
        const stop = indexOfNl(text, from);
        const to = stop === -1 ? length : stop;
        after.push(plain(from, to));
        from = to + 1;
      }
      const hit: SearchHit = { line: segLine, column, text: shown, before, after };
      state.hits.push(hit);
      if (after.length < spec.contextLines && !atEnd) state.waiting.push(hit);
    }
    pos = end + 1;
  }
  // Lines are counted through the rest of this segment only for a hit of a later segment to be
  // described: not at the file's end, nor once the hits to describe are all found (a 5 MB file's
  // line count after its one hit cost more than finding it).
  if (segLine !== -1 && !atEnd && state.hits.length < search.maxDetails) {
    state.countedLine = segLine + linesIn(segCounted, length);
    state.countedOffset = fileOffset + seg.length;
  }
  if (spec.contextLines > 0 && !atEnd) {
    state.tail = [];
    for (let to = length - 1, k = 0; k < spec.contextLines && to >= 0; k += 1) {
      const from = lastIndexOfNl(text, to - 1) + 1;
      state.tail.unshift(plain(from, to));
      to = from - 1;
    }
  }
}
