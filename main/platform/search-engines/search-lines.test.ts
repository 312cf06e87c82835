import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { columnOf, shownLine } from './search-lines';
import { countUtf8, shownUtf8Line } from './search-line-window';

/** A line of characters of every UTF-8 length, and '\r' (dropped when it ends the line). */
const chars = fc.constantFrom('a', 'b', ' ', '\t', '\r', 'é', 'ß', '日', '本', '😀', '𝄞', '~');
/** Mostly ASCII, as code is: there a match near the end of a long line shows the line's last characters. */
const codeChars = fc.oneof(
  { arbitrary: fc.constantFrom('a', 'b', ' ', '\r'), weight: 50 },
  { arbitrary: chars, weight: 1 },
);
const lineOf = (maxLength: number) =>
  fc
    .constantFrom(chars, codeChars)
    .chain((unit) => fc.array(unit, { maxLength, size: 'max' }))
    .map((parts) => parts.join(''));

describe('how a matching line is shown', () => {
  it('counts code points before a match as spreading the string would (property)', () => {
    const unit = fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom('\uD83D\uDE00', '\uD83D', '\uDE00', 'é', '日'));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (parts) => {
        const before = parts.join('');
        expect(columnOf(before)).toBe([...before].length + 1);
      }),
    );
  });

  it('counts code points and astral ones in UTF-8 bytes at any alignment (property)', () => {
    fc.assert(
      fc.property(lineOf(200), fc.nat(7), (line, pad) => {
        const bytes = Buffer.concat([Buffer.alloc(pad, 0x61), Buffer.from(line)]);
        expect(countUtf8(bytes, pad, bytes.length)).toEqual({
          codePoints: [...line].length,
          astral: [...line].filter((c) => c.length === 2).length,
        });
      }),
    );
  });

  it('shows a line from its bytes as shownLine shows the decoded line, around any match (property)', () => {
    fc.assert(
      fc.property(
        lineOf(1500),
        fc.nat(),
        fc.integer({ min: 1, max: 120 }),
        fc.string({ maxLength: 5 }),
        fc.boolean(),
        fc.boolean(),
        (line, at, max, pad, first, nearEnd) => {
          // The line sits inside other bytes, as in a segment of a file; the match starts on a character.
          const before = first ? '' : `${pad}\n`;
          const bytes = Buffer.from(`${before}${line}\n${pad}`);
          const start = Buffer.byteLength(before);
          const end = start + Buffer.byteLength(line);
          const characters = [...line];
          // Near the end of a long line, what is shown is its last maxLineChars.
          const cut =
            characters.length === 0
              ? 0
              : nearEnd
                ? Math.max(0, characters.length - 1 - (at % 30))
                : at % characters.length;
          const prefix = characters.slice(0, cut).join('');
          const column = columnOf(prefix);
          const shown = shownUtf8Line(bytes, start, end, start + Buffer.byteLength(prefix), max, first);
          expect(shown).toEqual({ text: shownLine(line, column, max, first), column });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("shows the last characters of a long line when the match is near its end, '\\r' not counted", () => {
    const line = `${'a'.repeat(1000)}NEEDLE${'b'.repeat(10)}\r`;
    const bytes = Buffer.from(`${line}\n`);
    const column = 1001;
    const shown = shownUtf8Line(bytes, 0, line.length, 1000, 100, false);
    expect(shown).toEqual({ text: shownLine(line, column, 100, false), column });
    expect(shown?.text).toBe(`…${'a'.repeat(84)}NEEDLE${'b'.repeat(10)}…`);
  });

  it('leaves bytes that are not UTF-8, and a first line with a byte order mark, to the decoding path', () => {
    const latin1 = Buffer.from('caf\xe9 ok\n', 'latin1');
    expect(shownUtf8Line(latin1, 0, latin1.length - 1, 0, 100, false)).toBeUndefined();
    const bom = Buffer.from('\uFEFFplain\n');
    expect(shownUtf8Line(bom, 0, bom.length - 1, 3, 100, true)).toBeUndefined();
    expect(shownUtf8Line(bom, 0, bom.length - 1, 3, 100, false)?.column).toBe(2);
  });
});
