import { ALL, and, stringPlan } from './trigram-formula';
import type { TrigramPlan } from './trigram-formula';
import { setPlan } from './regex-match-info';
import type { Info } from './regex-match-info';
import { Parser } from './regex-plan-parser';

// The entry point: a literal or regex query to its trigram plan. The formula lives in
// trigram-formula.ts, the regex analysis in regex-match-info.ts and regex-plan-parser.ts; the plan
// type and ALL are re-exported so callers keep importing from here.
export { ALL } from './trigram-formula';
export type { TrigramPlan } from './trigram-formula';

/** The plan of a literal query. */
export function literalPlan(query: string, caseSensitive: boolean): TrigramPlan {
  // A case-insensitive ASCII literal is matched on folded bytes; a non-ASCII one with the 'iu'
  // regex flags (search-query.ts), where k and s also match the Kelvin sign and the long s.
  // eslint-disable-next-line no-control-regex -- "is every character ASCII" is the question
  const ascii = /^[\x00-\x7f]*$/.test(query);
  if (caseSensitive || ascii) return stringPlan(query, { caseInsensitive: !caseSensitive, unicode: false });
  return regexPlan(query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'iu');
}

/** The plan of a regex query with its flags ('i', 'u', 'm', 's'); anything unparsable: all files. */
export function regexPlan(source: string, flags: string): TrigramPlan {
  const rules = { caseInsensitive: flags.includes('i'), unicode: flags.includes('u') || flags.includes('v') };
  if (flags.includes('v')) return ALL; // set notation: not parsed here
  let info: Info;
  try {
    info = new Parser(source, rules).parse();
  } catch {
    return ALL;
  }
  const parts = [info.match];
  if (info.exact !== undefined) parts.push(setPlan(info.exact));
  else parts.push(setPlan(info.prefix), setPlan(info.suffix));
  return and(parts);
}
