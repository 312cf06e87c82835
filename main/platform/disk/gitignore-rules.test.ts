import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test-support/temp-dir';
import { IgnoreRules, rebase } from './gitignore-rules';

const tempDir = useTempDirs();

/** .git/info/exclude: the lowest precedence; the root .gitignore can re-include what it excludes. */
const infoExclude = ['excluded-by-info.txt', '*.info-ex', 'override-me.txt'];

/** 44 root patterns (and 12 more below), each a shape git has rules for. */
const rootRules = [
  '# a comment line, not a pattern',
  '*.log', // extension at any depth
  '!keep.log', // negation re-includes
  'build/', // folder only, any depth
  '/root-only.txt', // anchored at the root
  'docs/*.md', // a slash anchors; * does not cross folders
  'a/**/b', // ** in the middle: zero or more folders
  '**/tmp', // leading **
  'cache*', // trailing *
  'trailing-space.txt   ', // trailing spaces dropped
  'escaped-space.txt\\ ', // an escaped trailing space kept
  '\\#hash', // escaped #
  '\\!bang', // escaped !
  'deep/nested/', // anchored folder
  '[Tt]humbs.db', // character class
  'x?.txt', // ? is one character
  '[!a-c]z.txt', // negated class
  '{a,b}.brace', // braces are literal in git
  '+(ext).glob', // extglobs are literal in git
  '@(one|two)', // and this one
  '*.[oa]', // class after *
  'lib/**', // trailing **: everything inside
  '!lib/keep/', // cannot re-include below an excluded folder's content rule? (git decides)
  'foo/**/bar.txt',
  '**/logs/*.txt',
  '/anchored-dir/',
  'star/*',
  '!star/kept.txt', // re-included: star/ itself is not excluded, only its entries
  'dir-only/',
  'name-no-slash',
  '/sub/anchored-in-root.txt',
  '**/deep-any',
  '*.tmp',
  '!important.tmp',
  'weird[.txt', // an unclosed bracket
  'q\\?.txt', // escaped ?
  '\\*literal-star', // escaped *
  'range[0-9].dat',
  '!override-me.txt', // re-includes what .git/info/exclude excluded
  'ends-in-star/**/*',
  'a?c/',
  '*.keep-all',
  '!src/*.keep-all',
  'visible/**',
  '!visible/**/',
];

/** Nested .gitignore files: they apply below their folder and win over the root's rules. */
const nested: Record<string, string[]> = {
  sub: ['*.gen', '!sub-keep.log', '/local-anchored.txt', 'nested/deeper/', '!cache-ok', 'tmp-in-sub', '#not-a-rule'],
  'sub/inner': ['!*.gen', 'only-here.txt'],
  'ignored-dir-x': ['!everything'],
};

/** Paths of the fixture: a trailing slash makes a folder. */
const paths = [
  'app.log',
  'src/app.log',
  'keep.log',
  'src/keep.log',
  'build/',
  'build/out.js',
  'src/build/',
  'src/build/x.js',
  'root-only.txt',
  'src/root-only.txt',
  'docs/readme.md',
  'docs/sub/readme.md',
  'a/b',
  'a/x/y/b',
  'a/x/c',
  'tmp/',
  'src/tmp',
  'cache',
  'cache-v2',
  'src/cached.js',
  'trailing-space.txt',
  'escaped-space.txt ',
  'escaped-space.txt',
  '#hash',
  '!bang',
  'deep/nested/',
  'deep/nested/file.txt',
  'other/deep/nested/',
  'Thumbs.db',
  'thumbs.db',
  'THUMBS.db',
  'x1.txt',
  'x12.txt',
  'dz.txt',
  'az.txt',
  '{a,b}.brace',
  'a.brace',
  '+(ext).glob',
  'ext.glob',
  '@(one|two)',
  'one',
  'main.o',
  'lib.a',
  'main.c',
  'lib/x.js',
  'lib/keep/y.js',
  'foo/bar.txt',
  'foo/q/r/bar.txt',
  'src/logs/a.txt',
  'logs/b.txt',
  'logs/deeper/c.txt',
  'anchored-dir/',
  'src/anchored-dir/',
  'star/a.txt',
  'star/kept.txt',
  'star/inner/z.txt',
  'dir-only',
  'src/dir-only/',
  'name-no-slash',
  'src/name-no-slash/',
  'sub/anchored-in-root.txt',
  'x/y/deep-any',
  'scratch.tmp',
  'important.tmp',
  'src/important.tmp',
  'weird[.txt',
  'q?.txt',
  'qx.txt',
  '*literal-star',
  'xliteral-star',
  'range5.dat',
  'rangex.dat',
  'excluded-by-info.txt',
  'a.info-ex',
  'override-me.txt',
  'ends-in-star/a/b.txt',
  'ends-in-star/c',
  'abc/',
  'a-c/',
  'note.keep-all',
  'src/note.keep-all',
  'visible/v.txt',
  'visible/deeper/w.txt',
  'plain.txt',
  '.hidden.log',
  'sub/x.gen',
  'sub/sub-keep.log',
  'sub/other.log',
  'sub/local-anchored.txt',
  'sub/inner/local-anchored.txt',
  'sub/nested/deeper/',
  'sub/nested/deeper/f.txt',
  'sub/cache-ok',
  'sub/cache-no',
  'sub/tmp-in-sub',
  'sub/inner/tmp-in-sub',
  'sub/#not-a-rule',
  'sub/inner/y.gen',
  'sub/inner/only-here.txt',
  'sub/only-here.txt',
  'ignored-dir-x/everything',
];

async function fixture(): Promise<string> {
  const root = await tempDir('familiar-gitignore-');
  execFileSync('git', ['init', '-q', root]);
  await writeFile(join(root, '.git', 'info', 'exclude'), `${infoExclude.join('\n')}\n`);
  await writeFile(join(root, '.gitignore'), `${rootRules.join('\n')}\n`);
  for (const [dir, rules] of Object.entries(nested)) {
    await mkdir(join(root, dir), { recursive: true });
    await writeFile(join(root, dir, '.gitignore'), `${rules.join('\n')}\n`);
  }
  for (const path of paths) {
    if (path.endsWith('/')) await mkdir(join(root, path), { recursive: true });
    else {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), '');
    }
  }
  return root;
}

/** What git says, one call for all paths, with no user or system excludes in the way. */
function gitIgnored(root: string, asked: readonly string[]): Set<string> {
  const out = execFileSync(
    'git',
    ['-c', 'core.excludesFile=/dev/null', '-c', 'core.ignoreCase=false', 'check-ignore', '--stdin', '-z'],
    {
      cwd: root,
      input: asked.map((path) => path.replace(/\/$/, '')).join('\0'),
      env: { PATH: process.env['PATH'] ?? '', HOME: root, GIT_CONFIG_NOSYSTEM: '1' },
      encoding: 'utf8',
    },
  );
  return new Set(out.split('\0').filter((path) => path !== ''));
}

describe('the ignore engine against git check-ignore', () => {
  it('agrees with git on every path of a fixture repository', async () => {
    const root = await fixture();
    // Every folder on the way too: the walk check below needs git's word on them.
    const folders = paths.flatMap((path) =>
      path
        .split('/')
        .slice(0, -1)
        .map((_, i, segments) => segments.slice(0, i + 1).join('/')),
    );
    const fromGit = gitIgnored(root, [...paths, ...new Set(folders)]);
    let rules = IgnoreRules.none.with('', infoExclude.join('\n')).with('', rootRules.join('\n'));
    for (const [dir, text] of Object.entries(nested)) rules = rules.with(dir, text.join('\n'));
    const disagreements = paths
      .map((path) => {
        const name = path.replace(/\/$/, '');
        const ours = rules.ignores(name, path.endsWith('/'));
        return ours === fromGit.has(name) ? undefined : `${path}: git ${fromGit.has(name)}, ours ${ours}`;
      })
      .filter((line) => line !== undefined);
    expect(disagreements).toEqual([]);
    // A walk asks about an entry only when no folder above it is ignored, and then one scan decides.
    const underKeptFolders = paths.filter((path) => {
      const segments = path.replace(/\/$/, '').split('/');
      return segments.slice(0, -1).every((_, i) => !fromGit.has(segments.slice(0, i + 1).join('/')));
    });
    expect(underKeptFolders.length).toBeGreaterThan(80);
    const walkDisagreements = underKeptFolders.filter((path) => {
      const name = path.replace(/\/$/, '');
      return rules.matchesItself(name, path.endsWith('/')) !== fromGit.has(name);
    });
    expect(walkDisagreements).toEqual([]);
    // The fixture means something only if git ignores some and keeps others.
    expect(rootRules.filter((rule) => !rule.startsWith('#')).length).toBeGreaterThanOrEqual(40);
    expect(fromGit.size).toBeGreaterThan(30);
    expect(paths.length - fromGit.size).toBeGreaterThan(30);
  });

  it('answers name-only rule sets per name, files and folders apart', () => {
    const rules = IgnoreRules.none.with('', 'build/\n*.tmp\n!keep.tmp\nThumbs.db  \n');
    const asked: [string, boolean][] = [
      ['a/build', true],
      ['b/build', false],
      ['c/build', true],
      ['d/build', false],
      ['x.tmp', false],
      ['src/x.tmp', false],
      ['src/keep.tmp', false],
      ['deep/er/Thumbs.db', false],
      ['plain.ts', false],
    ];
    for (const [path, isDirectory] of [...asked, ...asked]) {
      expect(rules.matchesItself(path, isDirectory), path).toBe(rules.ignores(path, isDirectory));
      const slash = path.lastIndexOf('/');
      const [dir, name] = slash < 0 ? ['', path] : [path.slice(0, slash), path.slice(slash + 1)];
      expect(rules.matchesEntry(dir, name, isDirectory), path).toBe(rules.ignores(path, isDirectory));
    }
    expect(asked.filter(([path, isDirectory]) => rules.matchesItself(path, isDirectory)).length).toBe(5);
  });

  it('rebases a nested rule onto its folder', () => {
    expect(rebase('src', '*.gen')).toBe('src/**/*.gen');
    expect(rebase('src', '/top.txt')).toBe('src/top.txt');
    expect(rebase('src', '!a/b/')).toBe('!src/a/b/');
    expect(rebase('we[ird]', 'x')).toBe('we\\[ird\\]/**/x');
    expect(rebase('#dir', 'x')).toBe('\\#dir/**/x');
    expect(rebase('src', '# comment')).toBeUndefined();
  });
});
