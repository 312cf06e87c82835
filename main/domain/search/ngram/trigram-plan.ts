import { trigramKey } from '../../../platform/sandbox/ngram-types';

/**
 * Which files may match a query, as a boolean formula over trigrams (Russ Cox, "Regular Expression
 * Matching with a Trigram Index", 2012): `all` when nothing can be told. A file the formula rejects
 * cannot match; one it accepts is only a candidate, confirmed by the real matcher.
 */
export type TrigramPlan =
  | { readonly op: 'all' }
  | { readonly op: 'tri'; readonly key: number }
  | { readonly op: 'and' | 'or'; readonly args: readonly TrigramPlan[] };

export const ALL: TrigramPlan = { op: 'all' };

export function and(args: readonly TrigramPlan[]): TrigramPlan {
  const kept: TrigramPlan[] = [];
  const keys = new Set<number>();
  for (const arg of args) {
    for (const part of arg.op === 'and' ? arg.args : [arg]) {
      if (part.op === 'all') continue;
      if (part.op === 'tri') {
        if (keys.has(part.key)) continue;
        keys.add(part.key);
      }
      kept.push(part);
    }
  }
  return kept.length === 0 ? ALL : kept.length === 1 ? kept[0]! : { op: 'and', args: kept };
}

export function or(args: readonly TrigramPlan[]): TrigramPlan {
  const kept: TrigramPlan[] = [];
  for (const arg of args) {
    if (arg.op === 'all') return ALL; // one branch could match anything: so could the whole
    kept.push(...(arg.op === 'or' ? arg.args : [arg]));
  }
  return kept.length === 0 ? ALL : kept.length === 1 ? kept[0]! : { op: 'or', args: kept };
}

/**
 * Which characters contribute their bytes to trigrams. Case-insensitive: only ASCII (the index folds
 * ASCII letters) and characters without case; with Unicode case folding ('iu') also not k and s
 * (the Kelvin sign and long s match them). U+FFFD is never taken: the matcher decodes invalid
 * UTF-8 bytes to it, so it stands for bytes we cannot know.
 */
export interface CharRules {
  readonly caseInsensitive: boolean;
  readonly unicode: boolean;
}

function usable(char: string, rules: CharRules): boolean {
  if (char === '\ufffd') return false;
  const code = char.codePointAt(0)!;
  if (code >= 0xd800 && code <= 0xdfff) return false; // a lone surrogate (non-Unicode regex)
  if (!rules.caseInsensitive) return true;
  if (code < 0x80) return !(rules.unicode && /[ks]/i.test(char));
  return char.toLowerCase() === char && char.toUpperCase() === char;
}

/** AND of the trigrams of a string's UTF-8 bytes, cut at characters that cannot be used. */
export function stringPlan(text: string, rules: CharRules): TrigramPlan {
  const parts: TrigramPlan[] = [];
  let run = '';
  const flush = () => {
    const bytes = Buffer.from(run, 'utf8');
    for (let i = 0; i + 2 < bytes.length; i += 1) {
      parts.push({ op: 'tri', key: trigramKey(bytes[i]!, bytes[i + 1]!, bytes[i + 2]!) });
    }
    run = '';
  };
  for (const char of text) {
    if (usable(char, rules)) run += char;
    else flush();
  }
  flush();
  return and(parts);
}

/** Strings of a regex's analysis: their characters were vetted one by one (Parser.char). */
const vetted: CharRules = { caseInsensitive: false, unicode: true };
const setPlan = (strings: ReadonlySet<string>) => or([...strings].map((text) => stringPlan(text, vetted)));

/**
 * What is known of a sub-expression's matches: the exact set of strings it matches (when small),
 * else sets of their possible prefixes and suffixes, and a formula every match satisfies.
 */
interface Info {
  readonly emptyable: boolean;
  readonly exact: ReadonlySet<string> | undefined;
  readonly prefix: ReadonlySet<string>;
  readonly suffix: ReadonlySet<string>;
  readonly match: TrigramPlan;
}

const MAX_SET = 16;
const NOTHING_KNOWN = new Set(['']);

const exactly = (strings: ReadonlySet<string>, emptyable = [...strings].includes('')): Info => ({
  emptyable,
  exact: strings,
  prefix: NOTHING_KNOWN,
  suffix: NOTHING_KNOWN,
  match: ALL,
});
const anyChar = (): Info => ({
  emptyable: false,
  exact: undefined,
  prefix: NOTHING_KNOWN,
  suffix: NOTHING_KNOWN,
  match: ALL,
});
const anyString = (): Info => ({ ...anyChar(), emptyable: true });
const empty = (): Info => exactly(new Set(['']), true);

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

function concat(x: Info, y: Info): Info {
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

function alternate(x: Info, y: Info): Info {
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
const plus = (x: Info): Info => concat(x, anyString());

/**
 * A small parser of JavaScript regex syntax, just enough to know what matches must contain; any
 * construct it does not know becomes "any string" (a bigger candidate set, never a wrong answer).
 */
class Parser {
  private at = 0;
  constructor(
    private readonly source: string,
    private readonly rules: CharRules,
  ) {}

  parse(): Info {
    const info = this.alternation();
    if (this.at < this.source.length) throw new Error('unbalanced )');
    return info;
  }

  private peek = () => this.source[this.at];

  private alternation(): Info {
    let info = this.sequence();
    while (this.peek() === '|') {
      this.at += 1;
      info = alternate(info, this.sequence());
    }
    return info;
  }

  private sequence(): Info {
    let info = empty();
    while (this.at < this.source.length && this.peek() !== '|' && this.peek() !== ')') {
      info = concat(info, this.quantified());
    }
    return info;
  }

  private quantified(): Info {
    let atom = this.atom();
    for (;;) {
      const next = this.peek();
      let min: number;
      if (next === '*' || next === '+' || next === '?') {
        this.at += 1;
        min = next === '+' ? 1 : 0;
      } else if (next === '{' && /^\{\d+(,\d*)?\}/.test(this.source.slice(this.at))) {
        const counted = /^\{(\d+)(,\d*)?\}/.exec(this.source.slice(this.at))!;
        this.at += counted[0].length;
        min = Number(counted[1]);
      } else {
        return atom;
      }
      if (this.peek() === '?') this.at += 1; // lazy: the same strings
      atom = min === 0 ? alternate(empty(), plus(atom)) : plus(atom);
    }
  }

  private char(text: string): Info {
    if (usable(text, this.rules)) return exactly(new Set([text]), false);
    // With Unicode case folding k and s also match the Kelvin sign and the long s: two strings.
    const special = ({ k: '\u212a', s: '\u017f' } as Record<string, string>)[text.toLowerCase()];
    if (this.rules.caseInsensitive && this.rules.unicode && special !== undefined) {
      return exactly(new Set([text.toLowerCase(), special]), false);
    }
    return anyChar();
  }

  private atom(): Info {
    const source = this.source;
    const c = source[this.at]!;
    if (c === '(') {
      this.at += 1;
      let lookaround = false;
      if (source.startsWith('?:', this.at)) this.at += 2;
      else if (/^\?<?[=!]/.test(source.slice(this.at))) {
        lookaround = true;
        this.at += source[this.at + 1] === '<' ? 3 : 2;
      } else if (source.startsWith('?<', this.at)) this.at = source.indexOf('>', this.at) + 1;
      const inner = this.alternation();
      if (this.peek() !== ')') throw new Error('unbalanced (');
      this.at += 1;
      // A lookaround matches no text: what it asserts is not taken (conservative).
      return lookaround ? empty() : inner;
    }
    if (c === '[') return this.charClass();
    this.at += 1;
    if (c === '.') return anyChar();
    if (c === '^' || c === '$') return empty();
    if (c === '\\') return this.escape(false) ?? anyString();
    // A surrogate pair is one character in Unicode mode; otherwise two code units, each unusable alone.
    if (this.rules.unicode && c >= '\ud800' && c <= '\udbff' && this.at < source.length) {
      const pair = c + source[this.at]!;
      if (pair.codePointAt(0)! > 0xffff) {
        this.at += 1;
        return this.char(pair);
      }
    }
    return this.char(c);
  }

  /** After a backslash: a character's Info, anyChar for a class, empty for an assertion, undefined for a back reference. */
  private escape(inClass: boolean): Info | undefined {
    const source = this.source;
    const c = source[this.at] ?? '';
    this.at += 1;
    const simple: Record<string, string> = { n: '\n', r: '\r', t: '\t', f: '\f', v: '\v', '0': '\0' };
    if (c in simple && !(c === '0' && /\d/.test(source[this.at] ?? ''))) return this.char(simple[c]!);
    if (c === 'b' || c === 'B') return inClass ? this.char('\b') : empty();
    if ('dDwWsS'.includes(c) && c !== '') return anyChar();
    if (c === 'p' || c === 'P') {
      if (source[this.at] === '{') this.at = source.indexOf('}', this.at) + 1;
      return anyChar();
    }
    const hex = (length: number) => {
      const digits = source.slice(this.at, this.at + length);
      if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== length) return undefined;
      this.at += length;
      return String.fromCodePoint(parseInt(digits, 16));
    };
    if (c === 'x') return this.fromCode(hex(2), 'x');
    if (c === 'u') {
      if (source[this.at] === '{') {
        const close = source.indexOf('}', this.at);
        const digits = source.slice(this.at + 1, close);
        if (close !== -1 && /^[0-9a-fA-F]+$/.test(digits) && parseInt(digits, 16) <= 0x10ffff) {
          this.at = close + 1;
          return this.char(String.fromCodePoint(parseInt(digits, 16)));
        }
        return anyChar();
      }
      return this.fromCode(hex(4), 'u');
    }
    if (c === 'c' && /[a-zA-Z]/.test(source[this.at] ?? '')) {
      this.at += 1;
      return anyChar();
    }
    if (/[1-9]/.test(c) || c === 'k') {
      if (c === 'k' && source[this.at] === '<') this.at = source.indexOf('>', this.at) + 1;
      else while (/\d/.test(source[this.at] ?? '')) this.at += 1;
      return undefined; // a back reference: any text, the empty string included
    }
    if (c === '') return anyChar();
    return this.char(c); // an escaped punctuation mark (or an identity escape) is itself
  }

  private fromCode(char: string | undefined, letter: string): Info {
    return char === undefined ? this.char(letter) : this.char(char);
  }

  /** A class: the set of its characters when small and plain, else any character. */
  private charClass(): Info {
    const source = this.source;
    this.at += 1;
    const negated = source[this.at] === '^';
    if (negated) this.at += 1;
    const chars = new Set<string>();
    let plain = !negated;
    while (this.at < source.length && source[this.at] !== ']') {
      let item: string | undefined;
      if (source[this.at] === '\\') {
        this.at += 1;
        const escaped = this.escape(true);
        item = escaped?.exact?.size === 1 ? [...escaped.exact][0] : undefined;
        if (item === undefined) plain = false;
      } else {
        item = String.fromCodePoint(source.codePointAt(this.at)!);
        this.at += this.rules.unicode ? item.length : 1;
        if (!this.rules.unicode) item = source[this.at - 1]!;
      }
      if (item !== undefined && source[this.at] === '-' && source[this.at + 1] !== ']' && this.at + 1 < source.length) {
        // A range: its characters when few, else anything.
        this.at += 1;
        let end: string | undefined;
        if (source[this.at] === '\\') {
          this.at += 1;
          const escaped = this.escape(true);
          end = escaped?.exact?.size === 1 ? [...escaped.exact][0] : undefined;
        } else {
          end = String.fromCodePoint(source.codePointAt(this.at)!);
          this.at += this.rules.unicode ? end.length : 1;
          if (!this.rules.unicode) end = source[this.at - 1]!;
        }
        const from = item.codePointAt(0)!;
        const to = end?.codePointAt(0) ?? Infinity;
        if (to - from >= MAX_SET) plain = false;
        else for (let code = from; code <= to; code += 1) chars.add(String.fromCodePoint(code));
        continue;
      }
      if (item !== undefined) chars.add(item);
    }
    if (source[this.at] !== ']') throw new Error('unterminated class');
    this.at += 1;
    if (!plain || chars.size === 0 || chars.size > MAX_SET) return anyChar();
    let info: Info | undefined;
    for (const char of chars) {
      const one = this.char(char);
      info = info === undefined ? one : alternate(info, one);
    }
    return info ?? anyChar();
  }
}

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
