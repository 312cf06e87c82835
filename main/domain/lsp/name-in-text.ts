import type { Position } from 'vscode-languageserver-protocol';

/**
 * Where a name is spelled in a file's text, for a code tool given a name the file uses but does not
 * declare (an imported function), or a name with a position that may be off by a little. Words, not
 * syntax: the language server then says what the word is.
 */

const identifierChar = /[\p{L}\p{N}_$]/u;
const isIdentifierChar = (char: string | undefined): boolean => char !== undefined && identifierChar.test(char);

/** What a use spells of a dotted name: "Cart.total" is used as `cart.total()`, so as "total". */
export const lastSegment = (symbol: string): string => symbol.split('.').pop() ?? symbol;

/** Where `name` starts as a whole word (not inside a longer identifier) in `text`, in order. */
function wordStarts(text: string, name: string): number[] {
  const starts: number[] = [];
  if (name === '') return starts;
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + name.length)) {
    if (!isIdentifierChar(text[at - 1]) && !isIdentifierChar(text[at + name.length])) starts.push(at);
  }
  return starts;
}

/**
 * The whole-word `name` on 0-based `line` nearest to `character`: the one at or touching it
 * (the position just after a name still names it), else the closest on the line.
 */
export function nearestOnLine(text: string, line: number, character: number, name: string): Position | undefined {
  const lineText = text.split('\n')[line] ?? '';
  const distance = (start: number) =>
    character < start ? start - character : Math.max(0, character - (start + name.length));
  const [nearest] = wordStarts(lineText, name).sort((a, b) => distance(a) - distance(b));
  return nearest === undefined ? undefined : { line, character: nearest };
}

/** Where a quoted or commented stretch starting at `at` ends, if one starts there (C-family syntax). */
function skippedEnd(text: string, at: number): number | undefined {
  const lineEnd = (from: number) => {
    const newline = text.indexOf('\n', from);
    return newline === -1 ? text.length : newline;
  };
  const char = text[at];
  if (char === '/' && text[at + 1] === '/') return lineEnd(at);
  if (char === '/' && text[at + 1] === '*') {
    const close = text.indexOf('*/', at + 2);
    return close === -1 ? text.length : close + 2;
  }
  if (char !== '"' && char !== "'" && char !== '`') return undefined;
  // Quotes end at their line's end too (a Rust lifetime 'a is no string); template strings do not.
  const end = char === '`' ? text.length : lineEnd(at);
  for (let index = at + 1; index < end; index += 1) {
    if (text[index] === '\\') index += 1;
    else if (text[index] === char) return index + 1;
  }
  return end;
}

/** The text with comments and strings blanked (newlines kept), so offsets still match. */
function codeOnly(text: string): string {
  const parts: string[] = [];
  let plainFrom = 0;
  for (let at = 0; at < text.length;) {
    const end = skippedEnd(text, at);
    if (end === undefined) {
      at += 1;
      continue;
    }
    parts.push(text.slice(plainFrom, at), text.slice(at, end).replace(/[^\n]/g, ' '));
    plainFrom = end;
    at = end;
  }
  parts.push(text.slice(plainFrom));
  return parts.join('');
}

/**
 * The first whole-word use of `name` in `text`, outside comments and strings as C-family languages
 * (TypeScript, Java, Go, Rust…) write them; where only a comment or string holds it, there.
 */
export function firstUse(text: string, name: string): Position | undefined {
  const at = wordStarts(codeOnly(text), name)[0] ?? wordStarts(text, name)[0];
  if (at === undefined) return undefined;
  const before = text.slice(0, at);
  const line = before.split('\n').length - 1;
  return { line, character: at - (before.lastIndexOf('\n') + 1) };
}
