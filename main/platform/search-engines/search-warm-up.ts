import type { NewlineScanner } from '../disk/newline-scan';
import { compileMatcher } from './search-matchers';
import { newFileState, scanSegment } from './search-segment';
import type { SearchSpec } from './search-types';

/**
 * A search thread's first search ran its code cold: V8 interprets the matchers' loops and the
 * describing of each hit until it has compiled them. On a fresh server, the job describing 62 files
 * of a 3.8k-file tree took 14-18 ms of CPU (8 ms once warm), and the first search of a rare word in
 * an npm tree 585-685 ms (520-545 ms warm). So each search thread runs the same code once as it
 * starts (fs-worker.ts, before any search reaches it), while the app's modules load: the kinds of
 * query compileQuery makes (search-query.ts), over a made-up text in the thread's read buffer.
 * ~15-25 ms of that thread's CPU.
 */

/** A text of this many bytes: enough loop turns and hits for V8 to compile the loops and each hit's path. */
const SAMPLE_BYTES = 256 << 10;

const base = { contextLines: 0, maxLineChars: 500, flags: '' } as const;
/** A literal (case-insensitive, then exact), a regex with a literal to find its lines by, and one without. */
const warmSpecs: readonly SearchSpec[] = [
  { ...base, mode: 'nocase', pattern: 'needle' },
  { ...base, mode: 'bytes', pattern: 'needle' },
  { ...base, mode: 'utf8', pattern: 'needle\\w*\\d', flags: 'miu', prefilter: { needle: 'needle', nocase: true } },
  { ...base, mode: 'utf8', pattern: 'ne+dle', flags: 'miu' },
];

const words = ['const', 'value', 'return', 'export', 'function', 'über', 'data', 'handler', '日本', 'x'];

/**
 * Writes the sample into `buffer` (as much of it as fits): lines of words, every fourth with a hit
 * (one in two in capitals). Returns its length, whole lines.
 */
function writeSample(buffer: Buffer): number {
  const limit = Math.min(SAMPLE_BYTES, buffer.length);
  let at = 0;
  for (let line = 0; ; line += 1) {
    const hit = line % 4 !== 0 ? ' ' : ` ${line % 8 === 0 ? 'Needle' : 'needle'}${line % 10} `;
    const text = `${words[line % 10]} ${words[(line * 7) % 10]}${hit}${words[(line * 3) % 10]} ${'y'.repeat(line % 40)}\n`;
    const size = Buffer.byteLength(text);
    if (at + size > limit) return at;
    at += buffer.write(text, at, 'utf8');
  }
}

/**
 * Runs each kind of search over a made-up text in `buffer` (the thread's read buffer, in the
 * scanner's memory: what a search reads into): the lines found by each, in order, so a test can
 * tell the work was done. `buffer` holds nothing a search needs afterwards.
 */
export function warmUpSearch(scanner: NewlineScanner, buffer: Buffer): number[] {
  const length = writeSample(buffer);
  const seg = buffer.subarray(0, length);
  return warmSpecs.map((spec) => {
    const { findIn, onBytes } = compileMatcher(spec);
    const decoded = spec.mode === 'utf8' && !onBytes;
    const state = newFileState(-1); // one segment, the whole text: the file is never read
    const text = onBytes ? seg : seg.toString(decoded ? 'utf8' : 'latin1');
    scanSegment({ spec, findIn, maxDetails: 1000, newlines: scanner }, state, seg, text, decoded, 0, true);
    return state.count;
  });
}
