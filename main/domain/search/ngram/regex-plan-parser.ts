import { usable } from './trigram-formula';
import type { CharRules } from './trigram-formula';
import { alternate, anyChar, anyString, concat, empty, exactly, MAX_SET, plus } from './regex-match-info';
import type { Info } from './regex-match-info';

// The regex syntax walk: groups, quantifiers, escapes and classes turned into Info values.
// Separate from regex-match-info.ts (what Info means and how it combines) because JavaScript's
// escape and class rules are a long, self-contained concern of their own.

/**
 * A small parser of JavaScript regex syntax, just enough to know what matches must contain; any
 * construct it does not know becomes "any string" (a bigger candidate set, never a wrong answer).
 */
export class Parser {
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
