import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ripgrepOnPath } from '../../platform/processes/ripgrep-locate';
import { confinementMode } from '../../platform/processes/confinement';
import { ripgrepPatternArgs } from '../../platform/search-engines/ripgrep-pattern';
import { compileQuery } from './search-query';
import { useTempDirs } from '../../test-support/temp-dir';
import type { SearchInCodeOutput } from '../search-in-code';
import { createToolKit } from '../../test-support/tool-kit';
import type { ToolKit } from '../../test-support/tool-kit';
import * as searchTrees from '../../test-support/search-trees';

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

const words = [...searchTrees.trapWords, '  '];
const line = searchTrees.lineOf(words);
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
const tree = fc.dictionary(searchTrees.treePaths, content, { maxKeys: 8 });

const literalQuery = fc.constantFrom(...searchTrees.trapLiterals, 's', '.', '(');
const regexAtom = fc.constantFrom(...searchTrees.trapRegexAtoms, '\\d+', '\\(', '\\t');
const regexQuery = fc
  .record({
    start: fc.boolean(),
    atoms: fc.array(regexAtom, { minLength: 1, maxLength: 3 }),
    end: fc.boolean(),
  })
  .map(({ start, atoms, end }) => `${start ? '^' : ''}${atoms.join('')}${end ? '$' : ''}`);
const query = searchTrees.queryOf(literalQuery, regexQuery);

function search(args: object, engine: 'ripgrep' | 'js'): Promise<SearchInCodeOutput> {
  // Without a ripgrep path the tool scans with its JS engine.
  return searchTrees.searchWith(kit, args, (env) => (engine === 'js' ? { ...env, ripgrep: undefined } : env));
}
describe.skipIf(rg === undefined)('ripgrep and the JS engine', () => {
  it('give identical results on generated trees and queries (property)', async () => {
    const runs = Number(process.env['SEARCH_PROPERTY_RUNS'] ?? 60);
    let byRipgrepRuns = 0;
    let walkedRuns = 0;
    await fc.assert(
      fc.asyncProperty(tree, query, fc.constantFrom(0, 1), fc.constantFrom(3, 100), async (files, q, context, max) => {
        await searchTrees.writeTree(kit.workspace, files);
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
        // Where ripgrep runs confined it walks the folders itself (search-ripgrep-walk.ts): the same answers.
        if (byRipgrep.walk === 'ripgrep') walkedRuns += 1;
        const { engine: _r, skipped_binary: binaryRg, walk: _w, ...fromRipgrep } = byRipgrep;
        const { engine: _j, skipped_binary: binaryJs, ...fromJs } = byJs;
        expect(fromRipgrep).toEqual(fromJs);
        // ripgrep reports only binary files with a match (SearchInCodeOutput.skipped_binary).
        expect(binaryRg).toBeLessThanOrEqual(binaryJs);
      }),
      { numRuns: runs },
    );
    // Most cases must have been ripgrep's, or the comparison proves little.
    expect(byRipgrepRuns).toBeGreaterThan(runs * 0.7);
    if (confinementMode().confined) expect(walkedRuns).toBe(byRipgrepRuns);
    // Real files and processes: minutes on a loaded machine with SEARCH_PROPERTY_RUNS raised.
  }, 300_000);
});
