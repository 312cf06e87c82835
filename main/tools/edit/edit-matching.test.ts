import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planEdit } from './edit-matching';

const after = (original: string, oldText: string, newText: string) => {
  const plan = planEdit(original, oldText, newText);
  if (!plan.ok) throw new Error(`${plan.error.code}: ${plan.error.message}`);
  return plan.value;
};

describe('planEdit', () => {
  it('replaces an exact, unique match', () => {
    const plan = after('a\nb\nc\n', 'b', 'B');
    expect(plan).toMatchObject({ after: 'a\nB\nc\n', matchedBy: 'exact', startLine: 2, endLine: 2 });
  });

  it('refuses more than one match with the count and the lines', () => {
    const plan = planEdit('x = 1\ny = 2\nx = 1\n', 'x = 1', 'x = 3');
    expect(plan.ok || plan.error).toMatchObject({ code: 'multiple_matches', details: { count: 2, lines: [1, 3] } });
  });

  it('says no_change when the replacement is the same text', () => {
    expect(planEdit('abc', 'b', 'b')).toMatchObject({ ok: false, error: { code: 'no_change' } });
  });

  it('finds text whose quotes, dashes and spaces differ, and touches only that span', () => {
    const original = 'intro “quoted” — text\u00a0here   \nnext line\n';
    const plan = after(original, 'intro "quoted" - text here', 'INTRO');
    expect(plan.matchedBy).toBe('normalized');
    // The trailing spaces after "here" sit outside the span and stay; the rest is the file's own.
    expect(plan.after).toBe('INTRO   \nnext line\n');
    // A span across the line end takes the trailing spaces with it.
    expect(after(original, 'text here\nnext', 'TEXT\nnext').after).toBe('intro “quoted” — TEXT\nnext line\n');
  });

  it('tolerates different indentation, and still requires uniqueness', () => {
    const original = 'function f() {\n\tif (x) {\n\t\treturn 1;\n\t}\n}\n';
    const plan = after(original, '  if (x) {\n    return 1;\n  }', '  if (y) {\n    return 2;\n  }');
    expect(plan.matchedBy).toBe('whitespace');
    expect(plan.after.startsWith('function f() {\n')).toBe(true);
    expect(plan.after.endsWith('\n}\n')).toBe(true);
    const twice = planEdit('\ta();\n    a();\n', 'a();', 'b();');
    expect(twice.ok || twice.error.code).toBe('multiple_matches');
  });

  it('matches CRLF files with LF oldText and writes CRLF back in the span', () => {
    const plan = after('one\r\ntwo\r\nthree\r\n', 'two\nthree', 'TWO\nTHREE\nFOUR');
    expect(plan.after).toBe('one\r\nTWO\r\nTHREE\r\nFOUR\r\n');
  });

  it('answers no_match when nothing is close', () => {
    const plan = planEdit('alpha\nbeta\n', 'gamma', 'delta');
    expect(plan.ok || plan.error.code).toBe('no_match');
  });

  it('never changes a byte outside the replaced span (property)', () => {
    // Random texts with quotes, dashes, odd spaces, tabs and CRLF; oldText is a span of the text,
    // sometimes with its quotes/spaces normalized as a model would type them.
    const piece = fc.constantFrom('a', 'b', ' ', '\t', '\n', '\r\n', '“', '”', '—', '\u00a0', 'x', 'é', '日');
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 60 }),
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        fc.string({ maxLength: 5 }),
        (pieces, a, b, normalize, replacement) => {
          const text = pieces.join('');
          const start = a % text.length;
          const end = start + 1 + (b % (text.length - start));
          let oldText = text.slice(start, end);
          if (normalize)
            oldText = oldText.replaceAll('“', '"').replaceAll('”', '"').replaceAll('—', '-').replaceAll('\u00a0', ' ');
          const plan = planEdit(text, oldText, replacement);
          if (!plan.ok) return; // ambiguous, unchanged or whitespace-only: refused, nothing to check
          const { start: s, end: e } = plan.value;
          expect(plan.value.after.slice(0, s)).toBe(text.slice(0, s));
          expect(plan.value.after.slice(s + plan.value.replacement.length)).toBe(text.slice(e));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
