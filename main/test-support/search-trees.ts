import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { searchInCodeTool } from '../tools/search-in-code';
import type { SearchInCodeOutput } from '../tools/search-in-code';
import type { ToolEnvironment } from '../tools/kit/tool-environment';
import type { ToolKit } from './tool-kit';

/**
 * Generated workspaces and queries for the search property tests: search-engines.test.ts (ripgrep
 * against the JS scan) and search-index.test.ts (the trigram index against a scan). Both compare
 * engines on the same traps, so the traps are written once here; each test adds the words and
 * queries only it needs.
 */

/**
 * What generated lines are made of: case-folding traps (K and k, ſ and s), non-ASCII letters,
 * characters regexes treat specially, tabs and stray CRs.
 */
export const trapWords = [
  'foo',
  'Foo',
  'FOO',
  'bar',
  'baz42',
  'x_1',
  'é',
  'Ünï',
  'K',
  'ſ',
  'k',
  's',
  ' ',
  '-',
  '.',
  '(',
  '\t',
  '\r',
];

/** Literal queries over those words, several of which only match under case folding. */
export const trapLiterals = ['foo', 'FOO', 'k', 'K', 'ſ', 'é', 'ünï', 'baz4', 'o b', 'x_1', 'oo'];

/** Pieces a generated regex is joined from: classes, groups, anchors inside branches, escapes. */
export const trapRegexAtoms = [
  'foo',
  'ba[rz]',
  '\\d',
  '\\w+',
  '[a-f]',
  '[^\\n x]',
  '.',
  '.*',
  '(foo|bar)',
  '(?:Foo)?',
  'é',
  'K',
  '\\.',
  '\\bfoo',
  'o{1,2}',
  '[0-9]{2}',
  '|^bar',
  'x$|',
  '(a|b$)',
];

/** Where generated files go: nested folders, a hidden file, a git-ignored folder (see writeTree) and node_modules. */
export const treePaths = fc.constantFrom(
  'a.txt',
  'b.ts',
  'src/c.ts',
  'src/deep/d.md',
  'src/deep/e.txt',
  'lib/f.js',
  '.hidden.txt',
  'build/out.txt',
  'node_modules/m/index.js',
);

/** One line of up to eight of the given words. */
export const lineOf = (words: readonly string[]): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...words), { maxLength: 8 }).map((parts) => parts.join(''));

/** A search_in_code query: a literal or a regex, either case-sensitive or not. */
export const queryOf = (literal: fc.Arbitrary<string>, regex: fc.Arbitrary<string>) =>
  fc.oneof(
    fc.record({ query: literal, is_regex: fc.constant(false), case_sensitive: fc.boolean() }),
    fc.record({ query: regex, is_regex: fc.constant(true), case_sensitive: fc.boolean() }),
  );

/** Replaces the workspace's content with the generated files, with a .gitignore that ignores build/. */
export async function writeTree(workspace: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const name of await readdir(workspace)) await rm(join(workspace, name), { recursive: true });
  await writeFile(join(workspace, '.gitignore'), 'build/\n');
  await writeFiles(workspace, files);
}

/** Writes each of `files` (a path under `root` → its content), making the folders on the way; what is there stays. */
export async function writeFiles(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [path, bytes] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), bytes);
  }
}

/** Runs search_in_code with the environment adjusted to pick an engine; a refusal fails the test. */
export async function searchWith(
  kit: ToolKit,
  args: object,
  engineEnv: (env: ToolEnvironment) => ToolEnvironment,
): Promise<SearchInCodeOutput> {
  const ctx = kit.ctx();
  const result = await kit.runner.run(searchInCodeTool, args, { ...ctx, env: engineEnv(ctx.env) });
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}
