import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { SearchSpec } from '../../platform/search-engines/search-types';
import { requiredLiteral } from './regex-literal';

// eslint-disable-next-line no-control-regex -- "is every character ASCII" is the question
const isAscii = (text: string) => /^[\x00-\x7f]*$/.test(text);

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Chooses the cheapest way to run a query, which the workers then apply to every file:
 * - a case-sensitive literal (or one without letters) → Buffer.indexOf on raw bytes;
 * - a case-insensitive ASCII literal of 4+ bytes → Horspool (bigram shifts) over case-folded bytes;
 * - a shorter one → a regex of [xX] classes over the bytes read as latin1 (measured ~1.5× faster
 *   than the 'i' flag, and no UTF-8 decoding);
 * - anything else (regex, non-ASCII without case) → a regex over decoded UTF-8 text, with lines
 *   found first by a literal the regex requires, when it has one.
 */
export function compileQuery(
  query: string,
  options: { isRegex: boolean; caseSensitive: boolean; contextLines: number; maxLineChars: number },
): Result<SearchSpec> {
  const common = { contextLines: options.contextLines, maxLineChars: options.maxLineChars };
  if (!options.isRegex) {
    const hasCase = query.toLowerCase() !== query.toUpperCase();
    if (options.caseSensitive || !hasCase) {
      return ok({ ...common, mode: 'bytes', pattern: Buffer.from(query, 'utf8').toString('latin1'), flags: '' });
    }
    const ascii = isAscii(query);
    // Horspool skips more the longer the needle; below 4 bytes the regex over latin1 is as fast.
    if (ascii && query.length >= 4) return ok({ ...common, mode: 'nocase', pattern: query, flags: '' });
    if (ascii) {
      const pattern = [...query]
        .map((char) =>
          char.toLowerCase() !== char.toUpperCase()
            ? `[${char.toLowerCase()}${char.toUpperCase()}]`
            : escapeRegex(char),
        )
        .join('');
      return ok({ ...common, mode: 'latin1', pattern, flags: '' });
    }
    return ok({ ...common, mode: 'utf8', pattern: escapeRegex(query), flags: 'iu' });
  }
  const flags = `m${options.caseSensitive ? '' : 'i'}`;
  // Unicode mode when the pattern allows it (\p{L}, code points); otherwise the classic syntax
  // many models write (e.g. '\-' outside a class) still works.
  for (const candidate of [`${flags}u`, flags]) {
    try {
      new RegExp(query, candidate);
      const literal = requiredLiteral(query);
      const usable = literal !== undefined && (options.caseSensitive || (literal.length >= 4 && isAscii(literal)));
      const prefilter = usable
        ? { needle: Buffer.from(literal, 'utf8').toString('latin1'), nocase: !options.caseSensitive }
        : undefined;
      return ok({
        ...common,
        mode: 'utf8',
        pattern: query,
        flags: candidate,
        ...(prefilter === undefined ? {} : { prefilter }),
      });
    } catch (error) {
      if (candidate === flags) {
        return err(
          'invalid_arguments',
          `query is not a valid regular expression: ${(error as Error).message}. Fix it, or pass is_regex: false to search for the text literally.`,
        );
      }
    }
  }
  return err('invalid_arguments', 'query is not a valid regular expression.');
}
