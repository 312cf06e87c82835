import type { SearchSpec } from './search-types';

/**
 * ripgrep's pattern arguments for a search, or undefined when ripgrep cannot be trusted to find
 * exactly the lines the JavaScript engine finds (then the JS engine runs). Literals map directly;
 * a JavaScript regex is translated only within a subset whose meaning is the same in both dialects
 * on a line: no lookaround, backreferences or \p classes, nothing that could match a line break
 * (\s, \W, \D, negated classes without \n: in JavaScript those could match across lines, ripgrep
 * searches line by line), and the Unicode ('u') flag, so that '.', classes and case folding work on
 * code points as in Rust's regex. `.`, `^` and `$` follow JavaScript's line terminators (\r,
 * \u2028 and \u2029 besides \n); anchors only where that can be said exactly (a branch's ends).
 */
export function ripgrepPatternArgs(spec: SearchSpec): string[] | undefined {
  const args = patternArgs(spec);
  // A NUL cannot be passed to a program at all (a start with one fails), nor a literal line break
  // searched for line by line: the JS engine answers those.
  return args?.some((arg) => arg.includes('\0')) === true ? undefined : args;
}

function patternArgs(spec: SearchSpec): string[] | undefined {
  switch (spec.mode) {
    case 'bytes': {
      const text = Buffer.from(spec.pattern, 'latin1').toString('utf8');
      // A needle spanning lines (or holding NUL) is beyond a line-by-line search.
      if (/[\n\0]/.test(text)) return undefined;
      return ['--fixed-strings', '--case-sensitive', '--regexp', text];
    }
    case 'nocase':
      // ASCII needle, ASCII case folding (the JS engine folds A-Z only: no Kelvin sign for k).
      if (spec.pattern.includes('\n')) return undefined;
      return ['--fixed-strings', '--ignore-case', '--no-unicode', '--regexp', spec.pattern];
    case 'latin1': {
      // An ASCII regex of [xX] classes and escaped punctuation, over bytes.
      const pattern = translateRegex(spec.pattern, false);
      return pattern === undefined ? undefined : ['--case-sensitive', '--no-unicode', '--regexp', pattern];
    }
    case 'utf8': {
      if (!spec.flags.includes('u')) return undefined;
      const pattern = translateRegex(spec.pattern, true);
      if (pattern === undefined) return undefined;
      const caseArg = spec.flags.includes('i') ? '--ignore-case' : '--case-sensitive';
      return [caseArg, '--regexp', pattern];
    }
  }
}

/** Characters Rust's regex syntax treats as special (escaping them is always allowed). */
const rustMeta = new Set([...'\\.+*?()|[]{}^$#&-~']);
const literal = (char: string) => (rustMeta.has(char) ? `\\${char}` : char);
const hex = /^[0-9a-fA-F]+$/;

/** Rust syntax for a JavaScript ('u' flag) regex, or undefined outside the shared subset. */
export function translateRegex(source: string, unicode: boolean): string | undefined {
  const chars = [...source];
  let out = '';
  let i = 0;
  // The meaning of an escape outside a class; undefined when it has no safe equivalent.
  const escape = (inClass: boolean): string | undefined => {
    const next = chars[i + 1];
    if (next === undefined) return undefined;
    i += 2;
    switch (next) {
      case 'd':
        return inClass ? '0-9' : '[0-9]';
      case 'w':
        return inClass ? '0-9A-Za-z_' : '[0-9A-Za-z_]';
      case 't':
        return '\\t';
      case 'r':
        return '\\r';
      case 'f':
        return '\\x0C';
      case 'v':
        return '\\x0B';
      case 'n':
        return inClass ? '\\n' : undefined; // only inside a negated class (checked by the caller)
      case 'b':
        return inClass ? '\\x08' : '(?-u:\\b)';
      case 'B':
        return inClass ? undefined : '(?-u:\\B)';
      case 'x': {
        const code = chars.slice(i, i + 2).join('');
        if (!hex.test(code) || code.length !== 2) return undefined;
        i += 2;
        return `\\x${code}`;
      }
      case 'u': {
        let code: string;
        if (chars[i] === '{') {
          const end = chars.indexOf('}', i);
          if (end === -1) return undefined;
          code = chars.slice(i + 1, end).join('');
          i = end + 1;
        } else {
          code = chars.slice(i, i + 4).join('');
          i += 4;
        }
        if (!hex.test(code)) return undefined;
        const value = Number.parseInt(code, 16);
        // Surrogate halves (a pair written as two escapes) and line terminators: not here.
        if ((value >= 0xd800 && value <= 0xdfff) || value === 10 || value === 13 || value > 0x10ffff) return undefined;
        return `\\x{${code}}`;
      }
      default:
        // Escaped punctuation stands for itself; letters and digits are classes, references or NUL.
        return /[A-Za-z0-9]/.test(next) ? undefined : literal(next);
    }
  };

  while (i < chars.length) {
    const char = chars[i]!;
    if (char === '\\') {
      const piece = escape(false);
      if (piece === undefined) return undefined;
      out += piece;
      continue;
    }
    if (char === '[') {
      const negated = chars[i + 1] === '^';
      i += negated ? 2 : 1;
      let body = '';
      let hasNewline = false;
      let items = 0;
      while (i < chars.length && chars[i] !== ']') {
        const c = chars[i]!;
        if (c === '\\') {
          if (chars[i + 1] === 'n') hasNewline = true;
          const piece = escape(true);
          if (piece === undefined) return undefined;
          body += piece;
        } else if (c === '-' && items > 0 && chars[i + 1] !== ']') {
          body += '-'; // a range between the atoms around it
          i += 1;
          continue;
        } else {
          body +=
            c === '\\' || c === '[' || c === ']' || c === '^' || c === '-' || c === '&' || c === '~' ? `\\${c}` : c;
          i += 1;
        }
        items += 1;
      }
      if (i >= chars.length || items === 0) return undefined; // unterminated, or [] / [^]
      i += 1;
      // A negated class matches \n in JavaScript (a match could run on into the next line) unless it names it.
      if (negated && !hasNewline) return undefined;
      if (!negated && hasNewline) return undefined;
      out += `[${negated ? '^' : ''}${body}]`;
      continue;
    }
    if (char === '(') {
      if (chars[i + 1] === '?') {
        if (chars[i + 2] === ':') {
          out += '(?:';
          i += 3;
          continue;
        }
        if (chars[i + 2] === '<' && chars[i + 3] !== '=' && chars[i + 3] !== '!') {
          const end = chars.indexOf('>', i);
          if (end === -1) return undefined;
          out += '(?:'; // a named group: its name does not change what matches
          i = end + 1;
          continue;
        }
        return undefined; // lookaround
      }
      out += '(';
      i += 1;
      continue;
    }
    if (char === '{') {
      const end = chars.indexOf('}', i);
      const body = end === -1 ? '' : chars.slice(i + 1, end).join('');
      if (!/^\d+(,\d*)?$/.test(body)) return undefined;
      out += `{${body}}`;
      i = end + 1;
      continue;
    }
    if (char === '.') {
      // JavaScript's '.' stops at every line terminator.
      out += unicode ? '[^\\n\\r\\x{2028}\\x{2029}]' : '[^\\n\\r]';
      i += 1;
      continue;
    }
    if (char === '^' || char === '$') {
      // JavaScript's multiline anchors also hold next to \r, \u2028 and \u2029 inside a line;
      // ripgrep's only at \n. Which lines match stays the same if the anchor also takes that
      // character, as long as nothing is matched on the other side of it: so only at a branch's
      // start (for ^) or end (for $).
      const terminators = unicode ? '\\r|\\x{2028}|\\x{2029}' : '\\r';
      if (char === '^' ? !atBranchStart(chars, i) : !atBranchEnd(chars, i)) return undefined;
      out += char === '^' ? `(?:^|${terminators})` : `(?:$|${terminators})`;
      i += 1;
      continue;
    }
    if (')|*+?'.includes(char)) {
      out += char;
      i += 1;
      continue;
    }
    if (char === '\n' || char === '\r' || char === '\u2028' || char === '\u2029' || char === '\0') return undefined;
    out += literal(char);
    i += 1;
  }
  return out;
}

/** Open groups before position `at` (escapes and classes skipped). */
function depthAt(chars: readonly string[], at: number): number {
  let depth = 0;
  for (let j = 0; j < at; j += 1) {
    if (chars[j] === '\\') j += 1;
    else if (chars[j] === '[') while (j < at && chars[j] !== ']') j += chars[j] === '\\' ? 2 : 1;
    else if (chars[j] === '(') depth += 1;
    else if (chars[j] === ')') depth -= 1;
  }
  return depth;
}

/** At the pattern's start but for opening groups, or right after a top-level `|`. */
function atBranchStart(chars: readonly string[], at: number): boolean {
  let j = at - 1;
  for (;;) {
    if (j < 0) return true;
    if (chars[j] === '|') return depthAt(chars, j) === 0;
    if (chars[j] === '(') j -= 1;
    else if (chars[j] === ':' && chars[j - 1] === '?' && chars[j - 2] === '(') j -= 3;
    else return false;
  }
}

/** At the pattern's end but for closing groups (no quantifier on them), or right before a top-level `|`. */
function atBranchEnd(chars: readonly string[], at: number): boolean {
  let j = at + 1;
  while (chars[j] === ')') j += 1;
  return j >= chars.length || (chars[j] === '|' && depthAt(chars, j) === 0);
}
