import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ripgrepOnPath } from '../platform/sandbox/ripgrep-locate';
import { ripgrepPatternArgs } from '../platform/sandbox/ripgrep-pattern';
import { compileQuery } from './search-query';
import { useTempDirs } from '../test-support/temp-dir';
import { searchInCodeTool } from './search-in-code';
import type { SearchInCodeOutput } from './search-in-code';
import { createToolKit } from '../test-support/tool-kit';
import type { ToolKit } from '../test-support/tool-kit';

/**
 * ripgrep and the JS engine give the same answers: generated trees (CRLF, non-ASCII, case-folding
 * traps like K (Kelvin) and ſ, NUL bytes early and late, ignored and hidden files) and generated
 * literal, case-insensitive and regex queries, every field compared.
 */
const tempDir = useTempDirs();
const rg = ripgrepOnPath();
let kit: ToolKit;
beforeAll(async () => {
  kit = await createToolKit(tempDir, { limits: { callsPerMinute: 1_000_000 } });
});
afterAll(() => kit?.dispose());

const words = [
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
  '  ',
  '-',
  '.',
  '(',
  '\t',
  '\r',
];
const line = fc.array(fc.constantFrom(...words), { maxLength: 8 }).map((parts) => parts.join(''));
const content = fc
  .record({
    lines: fc.array(line, { maxLength: 12 }),
    crlf: fc.boolean(),
    nul: fc.constantFrom('none', 'none', 'none', 'early', 'late'),
    finalNewline: fc.boolean(),
  })
  .map(({ lines, crlf, nul, finalNewline }) => {
    const text = lines.join(crlf ? '\r\n' : '\n') + (finalNewline && lines.length > 0 ? '\n' : '');
    const bytes = Buffer.from(text, 'utf8');
    if (nul === 'early') return Buffer.concat([Buffer.from([0]), bytes]);
    // A NUL past the 8 KB both engines sniff: the file is text for both. Short lines before it:
    // one 9000-character line would make regexes like \w+\w+\d backtrack for minutes in JS.
    if (nul === 'late') return Buffer.concat([bytes, Buffer.from('ab\n'.repeat(3000)), Buffer.from('\0\nfoo\n')]);
    return bytes;
  });
const paths = fc.constantFrom(
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
const tree = fc.dictionary(paths, content, { maxKeys: 8 });

const literalQuery = fc.constantFrom(
  'foo',
  'FOO',
  'k',
  'K',
  's',
  'ſ',
  'é',
  'ünï',
  'baz4',
  'o b',
  'x_1',
  '.',
  '(',
  'oo',
);
const regexAtom = fc.constantFrom(
  'foo',
  'ba[rz]',
  '\\d',
  '\\d+',
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
  '\\(',
  '\\bfoo',
  'o{1,2}',
  '\\t',
  '[0-9]{2}',
  '|^bar',
  'x$|',
  '(a|b$)',
);
const regexQuery = fc
  .record({
    start: fc.boolean(),
    atoms: fc.array(regexAtom, { minLength: 1, maxLength: 3 }),
    end: fc.boolean(),
  })
  .map(({ start, atoms, end }) => `${start ? '^' : ''}${atoms.join('')}${end ? '$' : ''}`);
const query = fc.oneof(
  fc.record({ query: literalQuery, is_regex: fc.constant(false), case_sensitive: fc.boolean() }),
  fc.record({ query: regexQuery, is_regex: fc.constant(true), case_sensitive: fc.boolean() }),
);

async function writeTree(files: Record<string, Buffer>) {
  for (const name of await readdir(kit.workspace)) await rm(join(kit.workspace, name), { recursive: true });
  await writeFile(join(kit.workspace, '.gitignore'), 'build/\n');
  for (const [path, bytes] of Object.entries(files)) {
    await mkdir(join(kit.workspace, path, '..'), { recursive: true });
    await writeFile(join(kit.workspace, path), bytes);
  }
}

async function search(args: object, engine: 'ripgrep' | 'js'): Promise<SearchInCodeOutput> {
  const ctx = kit.ctx();
  const env = engine === 'js' ? { ...ctx.env, ripgrep: undefined } : ctx.env;
  const result = await kit.runner.run(searchInCodeTool, args, { ...ctx, env });
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

describe.skipIf(rg === undefined)('ripgrep and the JS engine', () => {
  it('give identical results on generated trees and queries (property)', async () => {
    const runs = Number(process.env['SEARCH_PROPERTY_RUNS'] ?? 60);
    let byRipgrepRuns = 0;
    await fc.assert(
      fc.asyncProperty(tree, query, fc.constantFrom(0, 1), fc.constantFrom(3, 100), async (files, q, context, max) => {
        await writeTree(files);
        const args = { ...q, context_lines: context, max_results: max };
        const [byRipgrep, byJs] = [await search(args, 'ripgrep'), await search(args, 'js')];
        // Atoms combine into a few regexes ripgrep is not given (an anchor inside a branch).
        const compiled = compileQuery(q.query, {
          isRegex: q.is_regex,
          caseSensitive: q.case_sensitive,
          contextLines: 0,
          maxLineChars: 500,
        });
        const translated = compiled.ok && ripgrepPatternArgs(compiled.value) !== undefined;
        expect(byRipgrep.engine).toBe(translated ? 'ripgrep' : 'js');
        if (translated) byRipgrepRuns += 1;
        expect(byJs.engine).toBe('js');
        const { engine: _r, skipped_binary: binaryRg, ...fromRipgrep } = byRipgrep;
        const { engine: _j, skipped_binary: binaryJs, ...fromJs } = byJs;
        expect(fromRipgrep).toEqual(fromJs);
        // ripgrep reports only binary files with a match (SearchInCodeOutput.skipped_binary).
        expect(binaryRg).toBeLessThanOrEqual(binaryJs);
      }),
      { numRuns: runs },
    );
    // Most cases must have been ripgrep's, or the comparison proves little.
    expect(byRipgrepRuns).toBeGreaterThan(runs * 0.7);
    // Real files and processes: minutes on a loaded machine with SEARCH_PROPERTY_RUNS raised.
  }, 300_000);
});
