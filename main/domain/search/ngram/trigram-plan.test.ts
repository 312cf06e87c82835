import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { trigramKey } from '../../../platform/search-engines/ngram-types';
import { literalPlan, regexPlan } from './trigram-plan';
import type { TrigramPlan } from './trigram-plan';

/** The folded trigrams of a text's UTF-8 bytes, as the index holds them for a file. */
function trigramsOf(text: string): Set<number> {
  const bytes = Buffer.from(text, 'utf8');
  const keys = new Set<number>();
  for (let i = 0; i + 2 < bytes.length; i += 1) keys.add(trigramKey(bytes[i]!, bytes[i + 1]!, bytes[i + 2]!));
  return keys;
}

function accepts(plan: TrigramPlan, keys: Set<number>): boolean {
  switch (plan.op) {
    case 'all':
      return true;
    case 'tri':
      return keys.has(plan.key);
    case 'and':
      return plan.args.every((arg) => accepts(arg, keys));
    case 'or':
      return plan.args.some((arg) => accepts(arg, keys));
  }
}

// Case traps: \u212a (Kelvin) and \u017f (long s) fold to k and s; é/É; \ufffd stands for bad bytes.
const alphabet = ['a', 'b', 'k', 'K', 's', 'S', '\u212a', '\u017f', 'é', 'É', '1', ' ', '-', '.', '\n', '日'];
const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 24 }).map((chars) => chars.join(''));
const atom = fc.constantFrom(
  'a',
  'b',
  'k',
  'K',
  's',
  'é',
  'É',
  '\u212a',
  'ask',
  'bask',
  'sk',
  '.',
  '\\d',
  '\\w',
  '[ab]',
  '[kK]',
  '[^a]',
  '[a-c]',
  '(a|bs)',
  '(?:ks)?',
  'a*',
  'b+',
  'k{2}',
  's{1,3}',
  '\\.',
  '\\x61',
  '\\u00e9',
  '\\u{212a}',
  '^',
  '$',
  '\\b',
  '(?=ab)',
  '(a)\\1',
  '|',
  '日',
  ' ',
  '\\n',
);
const regex = fc.array(atom, { minLength: 1, maxLength: 6 }).map((atoms) => atoms.join(''));
const flags = fc.constantFrom('', 'i', 'u', 'iu', 'm', 'mi', 'miu', 'su', 'siu');

describe('trigram query plans', () => {
  it('never reject a text the regex matches (property)', () => {
    fc.assert(
      fc.property(regex, flags, text, (source, flagSet, haystack) => {
        let pattern: RegExp;
        try {
          pattern = new RegExp(source, flagSet);
        } catch {
          return; // not a regex under these flags
        }
        if (!pattern.test(haystack)) return;
        expect(accepts(regexPlan(source, flagSet), trigramsOf(haystack))).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it('never reject a text containing the literal, with or without case (property)', () => {
    fc.assert(
      fc.property(text, text, text, fc.boolean(), (before, needle, after, caseSensitive) => {
        fc.pre(needle.length > 0);
        const haystack = before + needle + after;
        // What search_in_code's matchers do: bytes, ASCII folding, or Unicode folding ('iu').
        // eslint-disable-next-line no-control-regex -- "is every character ASCII" is the question
        const ascii = /^[\x00-\x7f]*$/.test(needle);
        const variants = caseSensitive ? [needle] : ascii ? [needle.toLowerCase(), needle.toUpperCase()] : [needle];
        for (const variant of variants) {
          const shown = haystack.replace(needle, variant);
          expect(accepts(literalPlan(needle, caseSensitive), trigramsOf(shown))).toBe(true);
        }
        if (!caseSensitive && !ascii) {
          const folded = haystack.replace(needle, needle.replace(/k/g, '\u212a').replace(/s/g, '\u017f'));
          expect(accepts(literalPlan(needle, caseSensitive), trigramsOf(folded))).toBe(true);
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it('asks for the trigrams a selective query needs', () => {
    const plan = literalPlan('FamiliarNeedle', false);
    expect(accepts(plan, trigramsOf('a familiarneedle b'))).toBe(true);
    expect(accepts(plan, trigramsOf('familiar needle'))).toBe(false);
    const handlers = regexPlan('export function \\w+Handler\\d', 'miu');
    expect(accepts(handlers, trigramsOf('export function fooHandler1'))).toBe(true);
    expect(accepts(handlers, trigramsOf('export function foo'))).toBe(false);
    const either = regexPlan('(alpha|beta)gamma', 'mu');
    expect(accepts(either, trigramsOf('betagamma'))).toBe(true);
    expect(accepts(either, trigramsOf('beta gamma'))).toBe(false);
    expect(regexPlan('.*', 'mu')).toEqual({ op: 'all' });
  });
});
