import { ALL, and, or, stringPlan } from './trigram-formula';
import type { CharRules, TrigramPlan } from './trigram-formula';

// What a regex sub-expression is known to match (Info) and how those facts combine under
// concatenation, alternation and repetition. Separate from the parser (regex-plan-parser.ts), which
// only walks the syntax and calls these; here is the set arithmetic that decides which trigrams are required.

/** Strings of a regex's analysis: their characters were vetted one by one (Parser.char). */
const vetted: CharRules = { caseInsensitive: false, unicode: true };
export const setPlan = (strings: ReadonlySet<string>) => or([...strings].map((text) => stringPlan(text, vetted)));

/**
 * What is known of a sub-expression's matches: the exact set of strings it matches (when small),
 * else sets of their possible prefixes and suffixes, and a formula every match satisfies.
 */
export interface Info {
  readonly emptyable: boolean;
  readonly exact: ReadonlySet<string> | undefined;
  readonly prefix: ReadonlySet<string>;
  readonly suffix: ReadonlySet<string>;
  readonly match: TrigramPlan;
}

export const MAX_SET = 16;
const NOTHING_KNOWN = new Set(['']);

export const exactly = (strings: ReadonlySet<string>, emptyable = [...strings].includes('')): Info => ({
  emptyable,
  exact: strings,
  prefix: NOTHING_KNOWN,
  suffix: NOTHING_KNOWN,
  match: ALL,
});
export const anyChar = (): Info => ({
  emptyable: false,
  exact: undefined,
  prefix: NOTHING_KNOWN,
  suffix: NOTHING_KNOWN,
  match: ALL,
});
export const anyString = (): Info => ({ ...anyChar(), emptyable: true });
export const empty = (): Info => exactly(new Set(['']), true);

const cross = (a: ReadonlySet<string>, b: ReadonlySet<string>) => {
  const out = new Set<string>();
  for (const x of a) for (const y of b) out.add(x + y);
  return out;
};

/** Keeps the sets small: long strings give their trigrams to the formula, then are cut short. */
function simplify(info: Info): Info {
  let { exact, prefix, suffix, match } = info;
  if (exact !== undefined && exact.size > MAX_SET) {
    match = and([match, setPlan(exact)]);
    prefix = exact;
    suffix = exact;
    exact = undefined;
  }
  if (exact !== undefined) return { ...info, exact, match };
  const cut = (strings: ReadonlySet<string>, fromEnd: boolean): ReadonlySet<string> => {
    if ([...strings].some((text) => [...text].length >= 3)) match = and([match, setPlan(strings)]);
    for (const keep of [2, 1]) {
      const shorter = new Set(
        [...strings].map((text) => {
          const chars = [...text];
          return (fromEnd ? chars.slice(-keep) : chars.slice(0, keep)).join('');
        }),
      );
      if (shorter.size <= MAX_SET) return shorter;
    }
    return NOTHING_KNOWN;
  };
  prefix = cut(prefix, false);
  suffix = cut(suffix, true);
  return { emptyable: info.emptyable, exact: undefined, prefix, suffix, match };
}

export function concat(x: Info, y: Info): Info {
  let match = and([x.match, y.match]);
  if (x.exact !== undefined && y.exact !== undefined) {
    return simplify({ ...exactly(cross(x.exact, y.exact), x.emptyable && y.emptyable), match });
  }
  // Strings that straddle the seam: a suffix of x's match followed by a prefix of y's.
  const xSuffix = x.exact ?? x.suffix;
  const ySuffix = y.exact ?? y.suffix;
  const seam = cross(xSuffix, y.exact ?? y.prefix);
  if (seam.size <= MAX_SET * MAX_SET) match = and([match, setPlan(seam)]);
  const prefix = new Set(x.exact !== undefined ? cross(x.exact, y.prefix) : x.prefix);
  if (x.emptyable) for (const text of y.exact ?? y.prefix) prefix.add(text);
  const suffix = new Set(y.exact !== undefined ? cross(x.suffix, y.exact) : ySuffix);
  if (y.emptyable) for (const text of xSuffix) suffix.add(text);
  return simplify({ emptyable: x.emptyable && y.emptyable, exact: undefined, prefix, suffix, match });
}

export function alternate(x: Info, y: Info): Info {
  const emptyable = x.emptyable || y.emptyable;
  if (x.exact !== undefined && y.exact !== undefined) {
    return simplify({ ...exactly(new Set([...x.exact, ...y.exact]), emptyable), match: or([x.match, y.match]) });
  }
  // An exact side is turned into what it says of its strings before the union.
  const loose = (info: Info): Info =>
    info.exact === undefined
      ? info
      : { ...info, prefix: info.exact, suffix: info.exact, match: and([info.match, setPlan(info.exact)]) };
  const a = loose(x);
  const b = loose(y);
  return simplify({
    emptyable,
    exact: undefined,
    prefix: new Set([...a.prefix, ...b.prefix]),
    suffix: new Set([...a.suffix, ...b.suffix]),
    match: or([a.match, b.match]),
  });
}

/** One or more repetitions: x, then anything (what x says of its first match holds). */
export const plus = (x: Info): Info => concat(x, anyString());
