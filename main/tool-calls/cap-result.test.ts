import { describe, expect, it } from 'vitest';
import { ok } from '../../shared/result';
import { withResultBound } from '../tools/kit/result-bound';
import { capToolResult } from './cap-result';

/** A value that counts how often it is stringified (JSON.stringify calls toJSON). */
function counted(text: string) {
  const seen = { times: 0 };
  const value = {
    text,
    toJSON() {
      seen.times += 1;
      return { text };
    },
  };
  return { value, seen };
}

describe('capToolResult', () => {
  it('trusts a bound the tool recorded under the cap: no stringify just to measure', () => {
    const { value, seen } = counted('x'.repeat(50));
    const result = ok(withResultBound(value, 100));
    expect(capToolResult(result, 100)).toBe(result);
    expect(seen.times).toBe(0);
  });

  it('measures a value with no bound, or a bound over the cap, and cuts it when it is too long', () => {
    const small = counted('x'.repeat(50));
    expect(capToolResult(ok(small.value), 100)).toEqual(ok(small.value));
    expect(small.seen.times).toBe(1);
    // The bound is only "at most": over the cap, the real length decides.
    const loose = counted('x'.repeat(50));
    expect(capToolResult(ok(withResultBound(loose.value, 1000)), 100)).toEqual(ok(loose.value));
    expect(loose.seen.times).toBe(1);
    const long = counted('x'.repeat(500));
    const cut = capToolResult(ok(withResultBound(long.value, 1000)), 100);
    expect(cut.ok && cut.value).toMatch(/^\{"text":"x+\n\[Truncated: the JSON result had 411 more characters\.\]$/);
  });

  it('weighs an image by its facts: its bytes pass whole however long, or go with facts over the cap', () => {
    const image = { kind: 'image', path: 'a.png', mime: 'image/png', width: 1, height: 1, data: 'A'.repeat(5000) };
    const result = ok(image);
    expect(capToolResult(result, 200)).toBe(result);
    const cut = capToolResult(ok({ ...image, path: 'p'.repeat(300) }), 200);
    expect(cut.ok && cut.value).toMatch(/^\{"kind":"image","path":"p+\n\[Truncated/);
    expect(cut.ok && cut.value).not.toContain('AAAA');
  });
});
