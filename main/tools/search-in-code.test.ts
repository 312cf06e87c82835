import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempDirs } from '../test-support/temp-dir';
import { searchInCodeTool } from './search-in-code';
import { containing, createToolKit, matching } from '../test-support/tool-kit';
import type { ToolKit } from '../test-support/tool-kit';
import { createDirectRunner } from '../test-support/direct-runner';
import { ripgrepOnPath } from '../platform/processes/ripgrep-locate';

const tempDir = useTempDirs();
let kit: ToolKit;
afterEach(() => kit.dispose());

async function files(root: string, tree: Record<string, string | Buffer>) {
  for (const [path, content] of Object.entries(tree)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

/**
 * A project holding "secret word" in every kind of file a search leaves out by default: git-ignored
 * (one of them re-included by a nested .gitignore), hidden, .git, node_modules, binary, secret
 * (also inside node_modules) and a symlink; src/keep.ts is the one plain match.
 */
async function filesSearchLeavesOut(root: string) {
  await files(root, {
    '.gitignore': 'build/\n*.log\n',
    'src/keep.ts': 'secret word\n',
    'src/sub/.gitignore': '!important.log\n',
    'src/sub/important.log': 'secret word\n',
    'build/out.js': 'secret word\n',
    'app.log': 'secret word\n',
    '.hidden/x.txt': 'secret word\n',
    '.git/config': 'secret word\n',
    'node_modules/m/index.js': 'secret word\n',
    'node_modules/m/.env': 'secret word\n',
    'bin.dat': Buffer.concat([Buffer.from('secret word\n'), Buffer.from([0, 1, 2])]),
    '.env': 'secret word\n',
    'conf/server.pem': 'secret word\n',
  });
  await symlink(join(root, 'src/keep.ts'), join(root, 'link.ts'));
}

// Every behaviour holds whichever engine searches: ripgrep (when on PATH) and the JS engine.
const engines = ['auto', 'js'] as const;

describe.each(engines)('search_in_code (%s engine)', (searchEngine) => {
  it('finds a literal case-insensitively with file, line, column and text, in path order', async () => {
    kit = await createToolKit(tempDir, { searchEngine });
    await files(kit.workspace, {
      'src/b.ts': 'const x = 1;\n  return Needle(x);\n',
      'src/a.ts': 'needle at start\nnothing\nthe NEEDLE again\n',
      'README.md': 'no match here\n',
    });
    const result = await kit.call(searchInCodeTool, { query: 'needle' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.results).toEqual([
      { file: 'src/a.ts', line: 1, column: 1, text: 'needle at start' },
      { file: 'src/a.ts', line: 3, column: 5, text: 'the NEEDLE again' },
      { file: 'src/b.ts', line: 2, column: 10, text: '  return Needle(x);' },
    ]);
    expect(result.value).toMatchObject({
      total_matches: 3,
      files_with_matches: 2,
      truncated: false,
      searched_files: 3,
    });
  });

  it("stops below the result's size cap, so the answer stays a whole object", async () => {
    kit = await createToolKit(tempDir, { searchEngine, limits: { maxResultChars: 6000 } });
    const line = `needle ${'x'.repeat(200)}`;
    await files(kit.workspace, { 'long.txt': Array.from({ length: 100 }, () => line).join('\n') });
    const result = await kit.call(searchInCodeTool, { query: 'needle', max_results: 1000, context_lines: 2 });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value).toMatchObject({ total_matches: 100, truncated: true, notice: matching(/size limit/) });
    expect(JSON.stringify(result.value).length).toBeLessThanOrEqual(6000);
    expect(result.value.results.length).toBeGreaterThan(2);
    expect(result.value.results.map((r) => r.line)).toEqual(result.value.results.map((_, at) => at + 1));
  });

  it('honours case_sensitive, is_regex and file_pattern', async () => {
    kit = await createToolKit(tempDir, { searchEngine });
    await files(kit.workspace, { 'a.ts': 'Foo foo\nfunction fooBar() {}\n', 'b.py': 'def foo(): pass\n' });
    const sensitive = await kit.call(searchInCodeTool, { query: 'Foo', case_sensitive: true });
    expect(sensitive.ok && sensitive.value.results.map((r) => `${r.file}:${r.line}`)).toEqual(['a.ts:1']);
    const regex = await kit.call(searchInCodeTool, { query: '^(def|function) \\w+', is_regex: true });
    expect(regex.ok && regex.value.results.map((r) => `${r.file}:${r.line}`)).toEqual(['a.ts:2', 'b.py:1']);
    const pattern = await kit.call(searchInCodeTool, { query: 'foo', file_pattern: '*.py' });
    expect(pattern.ok && pattern.value.results.map((r) => r.file)).toEqual(['b.py']);
  });

  it('matches non-ASCII text without case and reports columns in characters', async () => {
    kit = await createToolKit(tempDir, { searchEngine });
    await files(kit.workspace, { 'ru.txt': 'Первая строка\nвторая СТРОКА тут\n' });
    const result = await kit.call(searchInCodeTool, { query: 'строка' });
    expect(result.ok && result.value.results.map((r) => [r.line, r.column])).toEqual([
      [1, 8],
      [2, 8],
    ]);
  });

  it('adds context lines, also across the 4 MB segments of a big file', async () => {
    kit = await createToolKit(tempDir, { searchEngine });
    const lines = Array.from({ length: 400_000 }, (_, i) => `row ${i + 1} ${'.'.repeat(8)}`);
    lines[1] = 'first target';
    lines[399_998] = 'last target';
    await files(kit.workspace, { 'big.txt': `${lines.join('\n')}\n` });
    const result = await kit.call(searchInCodeTool, { query: 'target', context_lines: 2 });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.results).toEqual([
      {
        file: 'big.txt',
        line: 2,
        column: 7,
        text: 'first target',
        context: { before: ['row 1 ........'], after: ['row 3 ........', 'row 4 ........'] },
      },
      {
        file: 'big.txt',
        line: 399_999,
        column: 6,
        text: 'last target',
        context: { before: ['row 399997 ........', 'row 399998 ........'], after: ['row 400000 ........'] },
      },
    ]);
  });

  it('counts every match but returns max_results, with truncated', async () => {
    kit = await createToolKit(tempDir, { searchEngine });
    await files(
      kit.workspace,
      Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${String(i).padStart(2, '0')}.txt`, 'hit\nhit\n'])),
    );
    const result = await kit.call(searchInCodeTool, { query: 'hit', max_results: 5 });
    expect(result).toEqual({
      ok: true,
      value: containing({
        total_matches: 60,
        truncated: true,
        files_with_matches: 30,
        notice: matching(/Showing 5 of 60/),
      }),
    });
    expect(result.ok && result.value.results.map((r) => `${r.file}:${r.line}`)).toEqual([
      'f00.txt:1',
      'f00.txt:2',
      'f01.txt:1',
      'f01.txt:2',
      'f02.txt:1',
    ]);
  });

  it('skips git-ignored, hidden, .git, node_modules, binary, secret and symlinked files; include_ignored brings back only the git-ignored ones and node_modules', async () => {
    kit = await createToolKit(tempDir, { searchEngine });
    await filesSearchLeavesOut(kit.workspace);
    const search = async (args: { include_ignored?: boolean }) => {
      const result = await kit.call(searchInCodeTool, { query: 'secret', ...args });
      if (!result.ok) throw new Error(result.error.message);
      return result.value;
    };
    const plain = await search({});
    const found = plain.results.map((r) => r.file);
    expect(found).toEqual(['src/keep.ts', 'src/sub/important.log']);
    expect(plain.skipped_binary).toBe(1);
    const withIgnored = (await search({ include_ignored: true })).results.map((r) => r.file);
    expect(withIgnored).toEqual(expect.arrayContaining(found));
    // What include_ignored adds: the git-ignored file, the ignored folder's and node_modules', no secret.
    expect(withIgnored.filter((file) => !found.includes(file))).toEqual([
      'app.log',
      'build/out.js',
      'node_modules/m/index.js',
    ]);
  });

  it('searches UTF-16 files with a BOM as text', async () => {
    kit = await createToolKit(tempDir, { searchEngine });
    await files(kit.workspace, { 'win.txt': iconv.encode('first\r\nfind ME here\r\n', 'utf-16le', { addBOM: true }) });
    const result = await kit.call(searchInCodeTool, { query: 'find me' });
    expect(result.ok && result.value.results).toEqual([{ file: 'win.txt', line: 2, column: 1, text: 'find ME here' }]);
  });

  it('searches one file when path is a file, and refuses an invalid regex precisely', async () => {
    kit = await createToolKit(tempDir, { searchEngine });
    await files(kit.workspace, { 'a.txt': 'abc\n', 'b.txt': 'abc\n' });
    const one = await kit.call(searchInCodeTool, { query: 'abc', path: 'b.txt' });
    expect(one.ok && one.value.results.map((r) => r.file)).toEqual(['b.txt']);
    const bad = await kit.call(searchInCodeTool, { query: '(unclosed', is_regex: true });
    expect(bad.ok || bad.error.code).toBe('invalid_arguments');
    expect(bad.ok || bad.error.message).toMatch(/not a valid regular expression/);
  });

  it('never shows concealed memory files, by name or content', async () => {
    kit = await createToolKit(tempDir, {
      searchEngine,
      isConcealed: (path) =>
        path === 'MEMORY.md' || path === 'USER.md' || path.startsWith('memory/') || path === 'memory',
    });
    await files(kit.personaDir, {
      'SOUL.md': 'persona word\n',
      'MEMORY.md': 'persona word\n',
      'memory/2025-01-01.md': 'persona word\n',
    });
    await files(kit.workspace, { 'notes.md': 'persona word\n' });
    const result = await kit.call(searchInCodeTool, { query: 'persona' });
    expect(result.ok && result.value.results.map((r) => r.file)).toEqual(['SOUL.md', 'notes.md']);
  });

  it('names the engine that searched', async () => {
    kit = await createToolKit(tempDir, { searchEngine });
    await files(kit.workspace, { 'a.txt': 'alpha\n' });
    const result = await kit.call(searchInCodeTool, { query: 'alpha' });
    const expected = searchEngine === 'auto' && ripgrepOnPath() !== undefined ? 'ripgrep' : 'js';
    expect(result.ok && result.value.engine).toBe(expected);
  });
});

describe('search_in_code in the JS engine', () => {
  it('ends a catastrophic regex at the timeout instead of hanging', async () => {
    // ripgrep's automata answer this regex at once: the worker threads are what needs the proof.
    kit = await createToolKit(tempDir, { searchEngine: 'js', limits: { timeoutMs: 300 } });
    await files(kit.workspace, { 'a.txt': `${'a'.repeat(40)}!\n` });
    const result = await kit.call(searchInCodeTool, { query: '^(a|aa)+$', is_regex: true });
    expect(result.ok || result.error.code).toBe('timeout');
    // The pool recovers: the next search works (given the usual time: a loaded machine needs more than 300 ms).
    const patient = createDirectRunner();
    const next = await patient.run(searchInCodeTool, { query: 'aaa' }, kit.ctx());
    expect(next.ok ? next.value.total_matches : next.error).toBe(1);
  });
});
