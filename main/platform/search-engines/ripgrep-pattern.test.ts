import { describe, expect, it } from 'vitest';
import { compileQuery } from '../../tools/search/search-query';
import { ripgrepPatternArgs, translateRegex } from './ripgrep-pattern';

const specOf = (query: string, isRegex: boolean, caseSensitive: boolean) => {
  const compiled = compileQuery(query, { isRegex, caseSensitive, contextLines: 0, maxLineChars: 500 });
  if (!compiled.ok) throw new Error(compiled.error.message);
  return compiled.value;
};

describe('ripgrep pattern arguments', () => {
  it('passes literals as fixed strings, ASCII case folding only for case-insensitive ASCII', () => {
    expect(ripgrepPatternArgs(specOf('Foo.bar', false, true))).toEqual([
      '--fixed-strings',
      '--case-sensitive',
      '--regexp',
      'Foo.bar',
    ]);
    expect(ripgrepPatternArgs(specOf('needle', false, false))).toEqual([
      '--fixed-strings',
      '--ignore-case',
      '--no-unicode',
      '--regexp',
      'needle',
    ]);
    // Short ASCII: the [xX] classes the JS engine runs, over bytes.
    expect(ripgrepPatternArgs(specOf('a.b', false, false))).toEqual([
      '--case-sensitive',
      '--no-unicode',
      '--regexp',
      '[aA]\\.[bB]',
    ]);
  });

  it('leaves to the JS engine a pattern holding a NUL (no program takes one) or a line break', () => {
    for (const [query, isRegex, caseSensitive] of [
      ['Abcd\u0000efgh', false, false], // case-insensitive, ASCII: the nocase mode
      ['Abcd\u0000efgh', false, true],
      ['ab\u0000c', true, false],
      ['ab\u0000c.é', true, true],
      ['two\nlines here', false, false],
    ] as const)
      expect(ripgrepPatternArgs(specOf(query, isRegex, caseSensitive))).toBeUndefined();
  });

  it('translates the shared regex subset with JavaScript meanings', () => {
    expect(translateRegex('^export function \\w+Handler\\d', true)).toBe(
      '(?:^|\\r|\\x{2028}|\\x{2029})export function [0-9A-Za-z_]+Handler[0-9]',
    );
    // JavaScript's $ holds before \r too: the anchor takes it, at a branch's end only.
    expect(translateRegex('(a|b$)', true)).toBe('(a|b(?:$|\\r|\\x{2028}|\\x{2029}))');
    expect(translateRegex('a.b', true)).toBe('a[^\\n\\r\\x{2028}\\x{2029}]b');
    expect(translateRegex('(?<name>x|y){2,3}[^\\n-]', true)).toBe('(?:x|y){2,3}[^\\n\\-]');
    expect(translateRegex('\\/path\\-#&~', true)).toBe('/path\\-\\#\\&\\~');
    expect(translateRegex('\\bword\\u{1F600}', true)).toBe('(?-u:\\b)word\\x{1F600}');
  });

  it('refuses what could mean something else to ripgrep (the JS engine searches then)', () => {
    for (const source of [
      'a(?=b)',
      '(?<!a)b',
      '(a)\\1',
      'a\\sb',
      '\\W',
      '\\D',
      '[^a]',
      '\\p{L}',
      'a\\nb',
      '[]',
      '[^]',
    ]) {
      expect(translateRegex(source, true), source).toBeUndefined();
    }
    // Without the 'u' flag '.', classes and case folding work on UTF-16 units: not translated.
    const classic = specOf('\\-x', true, true);
    expect(classic.flags).not.toContain('u');
    expect(ripgrepPatternArgs(classic)).toBeUndefined();
    // A literal spanning lines.
    expect(ripgrepPatternArgs(specOf('a\nb', false, true))).toBeUndefined();
  });
});
