import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxPathLength, parseWorkspacePath } from './path-syntax';

describe('parseWorkspacePath', () => {
  it.each([
    ['src/a.ts', 'src/a.ts'],
    ['./src//a.ts/', 'src/a.ts'],
    ['.', ''],
    ['src\\win\\path.txt', 'src/win/path.txt'],
    ['..foo/bar..', '..foo/bar..'],
    ['~/notes', '~/notes'],
  ])('normalizes %j to %j', (raw, expected) => {
    expect(parseWorkspacePath(raw)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['', /empty/],
    ['/etc/passwd', /absolute/],
    ['\\\\server\\share\\x', /UNC/],
    ['//server/share', /absolute/],
    ['C:\\Windows', /drive/],
    ['c:relative', /drive/],
    ['../x', /'\.\.'/],
    ['a/../../x', /'\.\.'/],
    ['a\\..\\..\\x', /'\.\.'/],
    ['a\0b', /NUL/],
    ['a'.repeat(maxPathLength + 1), /limit is 4096/],
  ])('refuses %j', (raw, message) => {
    const result = parseWorkspacePath(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('invalid_path');
      expect(result.error.message).toMatch(message);
    }
  });

  it('never yields an absolute path or a .. segment, whatever the input (property)', () => {
    const segment = fc.oneof(
      fc.constantFrom('..', '.', '', '~', 'C:', '\\', '/', 'a', '..a', '\0'),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), fc.constantFrom('/', '\\'), (segments, separator) => {
        const result = parseWorkspacePath(segments.join(separator));
        if (!result.ok) return;
        expect(result.value.startsWith('/')).toBe(false);
        expect(result.value.split('/')).not.toContain('..');
        expect(result.value).not.toContain('\\');
        expect(result.value).not.toContain('\0');
      }),
      { numRuns: 5000 },
    );
  });
});
