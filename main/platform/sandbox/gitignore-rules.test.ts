import ignore from 'ignore';
import { describe, expect, it } from 'vitest';
import { isIgnored, parseGitignore } from './gitignore-rules';

/** The `ignore` package (a faithful gitignore implementation) is the oracle for our compiled rules. */
const oracle = (rules: string, path: string, isDirectory: boolean) =>
  ignore()
    .add(rules)
    .ignores(isDirectory ? `${path}/` : path);

describe('gitignore rules', () => {
  const rules = [
    '# comment',
    '*.log',
    '!keep.log',
    'build/',
    '/root-only.txt',
    'docs/*.md',
    'a/**/b',
    '**/tmp',
    'cache*',
    'trailing-space.txt   ',
    '\\#hash',
    'deep/nested/',
    '[Tt]humbs.db',
    'ends-with-slash/',
    'x?.txt',
  ].join('\n');
  const cases: [string, boolean][] = [
    ['app.log', false],
    ['src/app.log', false],
    ['keep.log', false],
    ['src/keep.log', false],
    ['build', true],
    ['build', false],
    ['src/build', true],
    ['root-only.txt', false],
    ['src/root-only.txt', false],
    ['docs/readme.md', false],
    ['docs/sub/readme.md', false],
    ['a/b', true],
    ['a/x/y/b', false],
    ['tmp', true],
    ['src/tmp', false],
    ['cache', true],
    ['cache-v2', false],
    ['src/cached.js', false],
    ['trailing-space.txt', false],
    ['#hash', false],
    ['deep/nested', true],
    ['deep/nested', false],
    ['Thumbs.db', false],
    ['thumbs.db', false],
    ['ends-with-slash', false],
    ['x1.txt', false],
    ['x12.txt', false],
    ['.hidden.log', false],
    ['plain.txt', false],
  ];

  it.each(cases)('agrees with git (via the ignore package) on %s (folder: %s)', (path, isDirectory) => {
    expect(isIgnored([parseGitignore('', rules)], path, isDirectory)).toBe(oracle(rules, path, isDirectory));
  });

  it('applies a nested .gitignore below its own folder, and lets it re-include', () => {
    const frames = [parseGitignore('', '*.log\nsecret/\n'), parseGitignore('pkg', '!important.log\n/local.txt\n')];
    expect(isIgnored(frames, 'pkg/debug.log', false)).toBe(true);
    expect(isIgnored(frames, 'pkg/important.log', false)).toBe(false);
    expect(isIgnored(frames, 'important.log', false)).toBe(true);
    expect(isIgnored(frames, 'pkg/local.txt', false)).toBe(true);
    expect(isIgnored(frames, 'pkg/sub/local.txt', false)).toBe(false);
    expect(isIgnored(frames, 'pkg/secret', true)).toBe(true);
  });
});
