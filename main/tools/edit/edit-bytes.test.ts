import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planExactByteEdit } from './edit-bytes';
import { planEdit } from './edit-matching';
import { spliceDiff } from './unified-diff';

const bom = Buffer.from([0xef, 0xbb, 0xbf]);

/** What edit_file answers through the general path: planEdit on the decoded text. */
function general(text: string, oldText: string, newText: string) {
  const plan = planEdit(text, oldText, newText);
  if (!plan.ok) return undefined;
  const { start, end, replacement, startLine, after } = plan.value;
  return {
    after,
    startLine,
    endLine: startLine + (replacement.match(/\n/g)?.length ?? 0),
    diff: spliceDiff('f.txt', text, start, end, replacement, startLine),
    matchedBy: plan.value.matchedBy,
  };
}

const joined = (pieces: readonly Buffer[]) => Buffer.concat(pieces);

describe('planExactByteEdit', () => {
  it('answers what the decoded-text path answers, for any unique exact match', () => {
    const line = fc.stringMatching(/^[a-zé€😀 =;(){}]{0,12}$/u);
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 30 }),
        fc.nat(),
        fc.integer({ min: 1, max: 40 }),
        fc.string({ maxLength: 10 }),
        fc.boolean(),
        (lines, at, length, newText, withBom) => {
          const text = lines.join('\n');
          const start = at % (text.length + 1);
          const oldText = text.slice(start, start + length);
          const bytes = Buffer.concat([withBom ? bom : Buffer.alloc(0), Buffer.from(text)]);
          const fast = planExactByteEdit(bytes, undefined, oldText, newText, 'f.txt');
          const slow = general(text, oldText, newText);
          if (fast === undefined) {
            // Only cases the general path must decide: no unique exact match, no change, or text
            // that a UTF-16 slice cut inside a character.
            expect(
              slow === undefined || slow.matchedBy !== 'exact' || Buffer.from(oldText).toString() !== oldText,
            ).toBe(true);
            return;
          }
          expect(slow).toBeDefined();
          expect(
            joined(fast.pieces).equals(Buffer.concat([withBom ? bom : Buffer.alloc(0), Buffer.from(slow!.after)])),
          ).toBe(true);
          expect(fast).toMatchObject({ startLine: slow!.startLine, endLine: slow!.endLine, diff: slow!.diff });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('shows the same diff far into a big file, with only the nearby lines decoded', () => {
    const text = Array.from({ length: 50_000 }, (_, i) => `line ${i} — ünïcode`).join('\n');
    const fast = planExactByteEdit(Buffer.from(text), 'utf-8', 'line 41234 —', 'LINE 41234 —', 'f.txt');
    const slow = general(text, 'line 41234 —', 'LINE 41234 —');
    expect(fast).toMatchObject({ startLine: 41_235, endLine: 41_235, diff: slow!.diff });
    expect(slow!.diff).toContain('@@ -41232,7 +41232,7 @@');
  });

  it('leaves every other case to the general path', () => {
    const cases: [Buffer, string | undefined, string, string][] = [
      [Buffer.from('a\r\nb\r\n'), undefined, 'b', 'c'], // CRLF line endings
      [Buffer.from('x\nx\n'), undefined, 'x', 'y'], // two matches
      [Buffer.from('a “b”\n'), undefined, 'a "b"', 'c'], // only a normalized match
      [Buffer.from('ab\n'), undefined, 'b', 'b'], // no change
      [Buffer.from('caf\xe9\n', 'latin1'), undefined, 'caf', 'CAF'], // not UTF-8
      [Buffer.from('abc\n'), 'windows-1251', 'b', 'c'], // read in another encoding
      [Buffer.from('\ufeffab', 'utf16le'), undefined, 'a', 'c'], // UTF-16
      [Buffer.from('a\0b\n'), undefined, 'a', 'c'], // binary
      [Buffer.from('a\ufffdb\n'), undefined, 'a\ud800b', 'c'], // a lone surrogate is not U+FFFD
    ];
    for (const [bytes, encoding, oldText, newText] of cases)
      expect(planExactByteEdit(bytes, encoding, oldText, newText, 'f.txt'), oldText).toBeUndefined();
  });
});
