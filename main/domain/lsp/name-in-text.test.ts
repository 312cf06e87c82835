import { describe, expect, it } from 'vitest';
import { firstUse, lastSegment, nearestOnLine } from './name-in-text';

describe('a name in a file text', () => {
  it('is found first where code uses it, not in a comment, a string or a longer word', () => {
    const text = [
      '// greet says hello',
      "const label = 'greet';",
      '/* greet',
      '   greet */ const greeting = `greet ${1}`;',
      'greet(label); greet(label);',
    ].join('\n');
    expect(firstUse(text, 'greet')).toEqual({ line: 4, character: 0 });
    expect(firstUse('let x = "say \\"greet\\""; greet();', 'greet')).toEqual({ line: 0, character: 25 });
    // Only a comment holds it: there, rather than nowhere.
    expect(firstUse('// greet\nconst a = 1;', 'greet')).toEqual({ line: 0, character: 3 });
    expect(firstUse('const greeting = 1;', 'greet')).toBeUndefined();
    expect(firstUse('const a = 1;', '')).toBeUndefined();
  });

  it('on a line is the one at or touching the column, else the nearest', () => {
    const text = 'x\nconst total = cart.total() + total;';
    expect(nearestOnLine(text, 1, 19, 'total')).toEqual({ line: 1, character: 19 });
    expect(nearestOnLine(text, 1, 24, 'total')).toEqual({ line: 1, character: 19 });
    expect(nearestOnLine(text, 1, 27, 'total')).toEqual({ line: 1, character: 29 });
    expect(nearestOnLine(text, 1, 0, 'total')).toEqual({ line: 1, character: 6 });
    expect(nearestOnLine(text, 0, 0, 'total')).toBeUndefined();
    expect(nearestOnLine(text, 9, 0, 'total')).toBeUndefined();
    expect(lastSegment('Cart.total')).toBe('total');
  });
});
