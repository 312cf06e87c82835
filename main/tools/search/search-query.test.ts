import { describe, expect, it } from 'vitest';
import { requiredLiteral } from './regex-literal';
import { compileQuery } from './search-query';

const options = { isRegex: false, caseSensitive: false, contextLines: 0, maxLineChars: 500 };

describe('compileQuery', () => {
  it('picks the cheapest matcher for each kind of query', () => {
    expect(compileQuery('Needle', { ...options, caseSensitive: true })).toMatchObject({
      ok: true,
      value: { mode: 'bytes' },
    });
    expect(compileQuery('1234', options)).toMatchObject({ ok: true, value: { mode: 'bytes' } });
    expect(compileQuery('needle', options)).toMatchObject({ ok: true, value: { mode: 'nocase', pattern: 'needle' } });
    expect(compileQuery('ab', options)).toMatchObject({ ok: true, value: { mode: 'latin1', pattern: '[aA][bB]' } });
    expect(compileQuery('строка', options)).toMatchObject({ ok: true, value: { mode: 'utf8', flags: 'iu' } });
    expect(compileQuery('a.b(', { ...options, caseSensitive: true })).toMatchObject({
      ok: true,
      value: { mode: 'bytes', pattern: 'a.b(' },
    });
  });

  it('adds a literal prefilter to regexes that have one', () => {
    expect(compileQuery('export function \\w+', { ...options, isRegex: true })).toMatchObject({
      ok: true,
      value: { mode: 'utf8', prefilter: { needle: 'export function ', nocase: true } },
    });
    const alternation = compileQuery('foo|barbaz', { ...options, isRegex: true });
    expect(alternation.ok && 'prefilter' in alternation.value).toBe(false);
  });

  it('accepts classic regex syntax the unicode mode rejects', () => {
    expect(compileQuery('a\\-b', { ...options, isRegex: true })).toMatchObject({ ok: true, value: { flags: 'mi' } });
  });
});

describe('requiredLiteral', () => {
  it.each([
    ['export function \\w+Handler\\d', 'export function '],
    ['class (\\w+)Error extends', 'Error extends'],
    ['colou?r scheme', 'r scheme'],
    ['foo\\.bar\\(\\)', 'foo.bar()'],
    ['abc+defg', 'defg'],
    ['a{2}bcd', 'bcd'],
    ['(optional)?tail', 'tail'],
  ])('%s must contain %j', (source, literal) => {
    expect(requiredLiteral(source)).toBe(literal);
  });

  it.each(['foo|bar', 'foo\\s+bar', 'a[^x]b', 'ab', '\\w+', 'line\\nbreak'])('gives none for %s', (source) => {
    expect(requiredLiteral(source)).toBeUndefined();
  });
});
