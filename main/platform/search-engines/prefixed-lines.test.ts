import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prefixedLines } from './prefixed-lines';

const prefix = Buffer.from('{"type":"end"');

/** What a whole-text split finds: the lines (ended by a newline) that begin with the prefix. */
const expected = (text: string) =>
  text
    .split('\n')
    .slice(0, -1)
    .filter((line) => line.startsWith(prefix.toString()));

describe('prefixedLines', () => {
  it('hands over exactly the lines that begin with the prefix, however the stream is cut', () => {
    const line = fc.oneof(
      fc.constantFrom('{"type":"end","data":{"n":1}}', '{"type":"end"', '{"type":"en', '', 'x{"type":"end"}'),
      fc.string({ unit: fc.constantFrom('a', '{', '"', 't', 'é', ':'), maxLength: 40 }),
      fc.string({ maxLength: 20 }).map((s) => `{"type":"end",${s.replaceAll('\n', ' ')}}`),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.array(fc.nat(80), { maxLength: 10 }), (lines, cuts) => {
        const text = lines.map((l) => `${l}\n`).join('');
        const bytes = Buffer.from(text);
        const got: string[] = [];
        const feed = prefixedLines(prefix, (l) => got.push(l));
        let at = 0;
        for (const cut of cuts) {
          const end = Math.min(bytes.length, at + cut);
          feed(bytes.subarray(at, end));
          at = end;
        }
        feed(bytes.subarray(at));
        expect(got).toEqual(expected(text));
      }),
    );
  });

  it('passes over a long line without gathering it, and keeps the short one after it', () => {
    const long = `{"type":"match","data":"${'x'.repeat(1 << 20)}"}\n`;
    const end = '{"type":"end","data":{"path":"a.js"}}\n';
    const got: string[] = [];
    const feed = prefixedLines(prefix, (l) => got.push(l));
    const bytes = Buffer.from(long + end);
    for (let at = 0; at < bytes.length; at += 65_536) feed(bytes.subarray(at, at + 65_536));
    expect(got).toEqual([end.trimEnd()]);
  });
});
