import { foldedSearcher, lastIndexOfNl } from './fs-worker-text';
import type { Text } from './fs-worker-text';
import type { SearchSpec } from './search-types';

/**
 * The first match at or after `from` in a segment: `text` is the segment's bytes (literals, and
 * regexes with a prefilter), their latin1 string (ASCII regexes), or decoded text when `decoded`
 * (UTF-8 regexes, UTF-16 files). Returns an offset in `text`, or -1.
 */
export type FindIn = (text: Text, from: number, decoded: boolean) => number;

export interface Matcher {
  readonly findIn: FindIn;
  /** The segment is searched as raw bytes (not as a string). */
  readonly onBytes: boolean;
}

// Jobs of one search share their compiled matchers (the shift table alone is 256 KB): one per thread.
let cached: { key: string; find: (hay: Buffer, from: number) => number } | undefined;
const searcherFor = (needle: string) => {
  if (cached?.key !== needle) cached = { key: needle, find: foldedSearcher(needle) };
  return cached.find;
};

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function compileMatcher(spec: SearchSpec): Matcher {
  const literal = spec.mode === 'bytes' || spec.mode === 'nocase';
  const needle = spec.mode === 'bytes' ? Buffer.from(spec.pattern, 'latin1') : undefined;
  const foldedFind = spec.mode === 'nocase' ? searcherFor(spec.pattern) : undefined;
  const regex = literal ? undefined : new RegExp(spec.pattern, `${spec.flags}g`);
  const prefilter = spec.prefilter;
  let candidates: ((hay: Buffer, from: number) => number) | undefined;
  if (prefilter !== undefined) {
    const needleBytes = Buffer.from(prefilter.needle, 'latin1');
    candidates = prefilter.nocase ? searcherFor(prefilter.needle) : (hay, from) => hay.indexOf(needleBytes, from);
  }
  const lineRegex = prefilter === undefined ? undefined : new RegExp(spec.pattern, spec.flags);
  // UTF-16 files are decoded whole and searched as text: the literal needs a text form too.
  const textRegex =
    regex ??
    new RegExp(
      escapeRegex(Buffer.from(spec.pattern, 'latin1').toString('utf8')),
      `${spec.flags}${spec.mode === 'nocase' ? 'i' : ''}g`,
    );

  const findIn: FindIn = (text, from, decoded) => {
    if (!decoded && candidates !== undefined) {
      // Candidate lines by the literal; the regex decides on the decoded line.
      const bytes = text as Buffer;
      for (let pos = from; ;) {
        const at = candidates(bytes, pos);
        if (at === -1) return -1;
        const start = lastIndexOfNl(bytes, at - 1) + 1;
        let end = bytes.indexOf(10, at);
        if (end === -1) end = bytes.length;
        const line = bytes.toString('utf8', start, end);
        const match = lineRegex!.exec(line);
        if (match !== null) return start + Buffer.byteLength(line.slice(0, match.index));
        pos = end + 1;
      }
    }
    if (!decoded && needle !== undefined) return (text as Buffer).indexOf(needle, from);
    if (!decoded && foldedFind !== undefined) return foldedFind(text as Buffer, from);
    const re = decoded && spec.mode !== 'utf8' ? textRegex : regex!;
    re.lastIndex = from;
    const match = re.exec(text as string);
    return match === null ? -1 : match.index;
  };
  return { findIn, onBytes: literal || candidates !== undefined };
}
