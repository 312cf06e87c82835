import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { editFileTool, listFilesTool, searchInCodeTool } from '../main/tools/index';
import { corpusLayout, ensureCorpus, ensureSourceTree } from './corpus';
import type { Corpus } from './corpus';
import { compare, peakRss, runtimeLine, summarize, timeRuns } from './measure';
import type { ChildRun, Comparison, External } from './measure';
import { indexFigures } from './index-bench';
import { familiarMcp, indexMemoryRows, reportMemory } from './index-memory';
import { indexStateRows } from './index-states';
import { mcpRoundTrip } from './mcp-round-trip';
import { familiar, midStart, operations, rangeEnd, rangeStart, readTail, readText, relative } from './tool-operations';
import type { Familiar } from './tool-operations';
import { lines, report } from './tools-report';
import type { Row } from './tools-report';

/**
 * `npm run bench`: Familiar's file tools against the command-line tools people trust, side by side
 * on one generated corpus. Our figures are the tool calls as the app makes them (through the whole
 * tool-call pipeline: validation, policy, run guard, audit line), in a warm process; the references are spawned processes.
 */

const runs = Number(process.env['BENCH_RUNS'] ?? 5);
/** BENCH_ONLY=search: only the search_in_code rows (quick before/after figures for the search engines). */
const onlySearch = process.env['BENCH_ONLY'] === 'search';
/** BENCH_ONLY=list: only the list_files rows (quick before/after figures for the walk and the answer). */
const onlyList = process.env['BENCH_ONLY'] === 'list';
/** BENCH_ONLY=index: only the index states on the big tree (issue 32 item 10). */
const onlyIndex = process.env['BENCH_ONLY'] === 'index';
/** BENCH_ONLY=memory: only familiar-mcp's RSS per index state on the big tree (issue 32 item 7; needs `npm run build`). */
const onlyMemory = process.env['BENCH_ONLY'] === 'memory';
/** The index states' tree: ≥ 60k files (BENCH_TREE_PACKAGES × 1,000), generated once. */
const treeRoot = resolve(process.env['BENCH_TREE'] ?? join(process.cwd(), 'bench', '.tree'));
const treePackages = Number(process.env['BENCH_TREE_PACKAGES'] ?? 62);
const corpusRoot = resolve(process.env['BENCH_CORPUS'] ?? join(process.cwd(), 'bench', '.corpus'));
const script = fileURLToPath(import.meta.url);
const log = (line: string) => process.stderr.write(`${line}\n`);

async function child(operation: string): Promise<void> {
  const corpus = await ensureCorpus(corpusRoot, log);
  const f = await familiar(corpus);
  // BENCH_REPEAT > 1 profiles warm calls (node --cpu-prof out/bench/run.mjs --child <op>); their CPU
  // ms go to stderr, whose least is a steady figure for before/after on a busy machine.
  const warmCpuMs: number[] = [];
  for (let i = 1; i < Number(process.env['BENCH_REPEAT'] ?? 1); i += 1) {
    const before = process.cpuUsage();
    await operations[operation]!(f, corpus);
    const used = process.cpuUsage(before);
    warmCpuMs.push((used.user + used.system) / 1000);
  }
  if (warmCpuMs.length > 0) log(`warm calls' CPU ms: ${warmCpuMs.map((ms) => ms.toFixed(1)).join(' ')}`);
  const cpu = process.cpuUsage();
  const start = performance.now();
  await operations[operation]!(f, corpus);
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const maxRssKb = process.resourceUsage().maxRSS;
  await f.dispose();
  // CPU time of all threads (main and workers): what the call costs when cores are busy elsewhere.
  const cpuMs = (used.user + used.system) / 1000;
  process.stdout.write(`${JSON.stringify({ ms, maxRssKb, cpuMs } satisfies ChildRun)}\n`);
}

/** What a row timed against an external command shows: both timings (paired), and the command's peak memory. */
const measuredAgainst = (
  ref: { readonly name: string; readonly external: External },
  compared: Comparison,
): Pick<Row, 'ours' | 'reference' | 'ratio'> => ({
  ours: compared.ours,
  reference: { name: ref.name, timing: compared.reference, maxRssKb: peakRss(ref.external) },
  ratio: compared.pairedRatio,
});

/** The file tools against rg, fd, find and sed; answers whether a target was missed. */
async function toolsBench(): Promise<boolean> {
  if (onlyMemory) {
    log(runtimeLine());
    return reportMemory(await indexMemoryRows(await ensureSourceTree(treeRoot, treePackages, log), runs, log));
  }
  if (onlyIndex) {
    log(runtimeLine());
    const tree = await ensureSourceTree(treeRoot, treePackages, log);
    const rows = await indexStateRows(tree, runs, log);
    const failed = await report(rows, {
      log,
      runs,
      script,
      operationNames: ['idle'],
      onlySearch: true,
      onlyList: false,
    });
    return (await memoryTable(tree)) || failed;
  }
  const corpus = await ensureCorpus(corpusRoot, log);
  const f = await familiar(corpus);
  const rows: Row[] = [];
  const reference = (name: string, command: string, args: readonly string[]) => ({
    name,
    external: { command, args, cwd: corpus.root },
  });
  log(
    `corpus: ${corpus.root} (${corpus.sourceFiles} source files + ignored build/, 200 MB log, 5 MB source); ${runs} runs each; ${runtimeLine()}`,
  );

  const searches: {
    name: string;
    args: { query: string; is_regex?: boolean; case_sensitive?: boolean };
    rg: string[];
  }[] = [
    {
      name: 'search_in_code: rare literal, case-insensitive',
      args: { query: corpusLayout.needle },
      rg: ['-n', '-i', corpusLayout.needle],
    },
    {
      name: 'search_in_code: literal, case-sensitive',
      args: { query: corpusLayout.needle, case_sensitive: true },
      rg: ['-n', '-s', corpusLayout.needle],
    },
    {
      name: 'search_in_code: common literal (142k lines)',
      args: { query: 'return undefined' },
      rg: ['-n', '-i', 'return undefined'],
    },
    {
      name: 'search_in_code: regex',
      args: { query: 'export function \\w+Handler\\d', is_regex: true },
      rg: ['-n', '-i', 'export function \\w+Handler\\d'],
    },
  ];
  for (const search of onlyList ? [] : searches) {
    log(`${search.name}...`);
    const rg = reference('rg', 'rg', [...search.rg, '.']);
    let total = 0;
    const compared = await compare(
      runs,
      async () => {
        total = (await f.call(searchInCodeTool, { ...search.args, max_results: 1000 })).total_matches;
      },
      rg.external,
    );
    rows.push({
      name: search.name,
      ...measuredAgainst(rg, compared),
      target: '≤ 1.2× rg',
      ratioLimit: 1.2, // issue 16: cold search ≤ 1.2× ripgrep
      check: `${total} matching lines (rg: ${lines(compared.stdout)})`,
    });
  }

  if (!onlyList) await indexRows(corpus, rows);
  if (!onlyList) rows.push(...(await indexStateRows(await ensureSourceTree(treeRoot, treePackages, log), runs, log)));
  if (!onlySearch) await otherRows(f, corpus, rows, reference);
  await f.dispose();
  const failed = await report(rows, {
    log,
    runs,
    script,
    operationNames: Object.keys(operations),
    onlySearch,
    onlyList,
  });
  if (onlyList) return failed;
  return (await memoryTable(await ensureSourceTree(treeRoot, treePackages, log))) || failed;
}

/** familiar-mcp's RSS per index state, when the app is built (the MCP server is what the issue measures). */
async function memoryTable(tree: Corpus): Promise<boolean> {
  if (!existsSync(familiarMcp)) {
    log(`memory per index state skipped: ${familiarMcp} is missing (npm run build)`);
    return false;
  }
  return reportMemory(await indexMemoryRows(tree, runs, log));
}

/** The trigram index: build, size, memory, and warm selective queries against rg (issue 16 item 4). */
async function indexRows(corpus: Corpus, rows: Row[]): Promise<void> {
  const figures = await indexFigures(corpus, runs, log);
  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const share = (bytes: number) =>
    `${((bytes / figures.textBytes) * 100).toFixed(1)} % of ${mib(figures.textBytes)} text`;
  const context = (name: string, value: number, check: string): Row => ({
    name,
    ours: summarize([value]),
    target: 'context',
    check,
  });
  rows.push(
    context('search index: build (background, worker threads)', figures.buildMs, `${figures.files} files`),
    {
      ...context('search index: size on disk', 0, `${mib(figures.diskBytes)} = ${share(figures.diskBytes)}`),
      target: '≤ 50 % of text',
      absoluteLimitMs: figures.diskBytes <= figures.textBytes / 2 ? Infinity : 0,
    },
    {
      ...context(
        'search index: memory (postings + file table; what the build kept; RSS growth)',
        0,
        `${mib(figures.memoryBytes)} = ${share(figures.memoryBytes)}; heap + buffers kept +${mib(figures.retainedBytes)}; RSS +${mib(figures.rssDeltaBytes)}`,
      ),
      target: '≤ 50 % of text',
      absoluteLimitMs: figures.memoryBytes <= figures.textBytes / 2 ? Infinity : 0,
    },
    context(
      'search index: reopen from the data folder (+ refresh walk)',
      figures.reopenMs,
      'validated: format, workspace identity; every file by size + ctime',
    ),
    {
      name: 'search_in_code warm selective query (index, new pattern each run)',
      ours: figures.ours,
      reference: { name: 'rg', timing: figures.rg, maxRssKb: undefined },
      ratio: figures.ratio,
      target: '≤ 0.25× rg',
      ratioLimit: 0.25,
      check: `identical counts; candidates ${figures.queries.map((query) => query.candidates ?? '?').join('/')}`,
    },
  );
}

type Reference = (
  name: string,
  command: string,
  args: readonly string[],
) => { name: string; external: { command: string; args: readonly string[]; cwd: string } };

interface ReadOutcome {
  readonly content: string;
  /** False when something besides the text is wrong (the row then says DIFFERS). */
  readonly exact?: boolean;
  /** Added to the row's check. */
  readonly note?: string;
}

/**
 * A read_file row: ours and the reference run in turn, and the last call's text must be the
 * reference's output to the byte.
 */
const readRowMaker =
  (rows: Row[], reference: Reference) =>
  async (
    row: Pick<Row, 'name' | 'target' | 'ratioLimit'>,
    [name, command, args]: Parameters<Reference>,
    read: () => Promise<ReadOutcome>,
  ): Promise<void> => {
    const ref = reference(name, command, args);
    let last: ReadOutcome = { content: '' };
    const compared = await compare(
      runs,
      async () => {
        last = await read();
      },
      ref.external,
    );
    const same = `${last.content}\n` === compared.stdout && last.exact !== false;
    rows.push({
      ...row,
      ...measuredAgainst(ref, compared),
      check: `${same ? `same text as ${command}` : `DIFFERS from ${command}`}${last.note ?? ''}`,
    });
  };

/** list_files, read_file and edit_file against fd, find and sed. */
async function otherRows(f: Familiar, corpus: Corpus, rows: Row[], reference: Reference): Promise<void> {
  log('list_files recursive...');
  let listed = 0;
  const lister =
    (args: { include_ignored?: boolean; include_hidden?: boolean; sizes?: boolean } = {}) =>
    async () => {
      listed = (await f.call(listFilesTool, { path: '.', recursive: true, max_entries: 1_000_000, ...args })).entries
        .length;
    };
  // fd honours .gitignore like list_files; fd -u lists everything, like include_ignored + include_hidden.
  for (const [name, command, args, ours, label, target] of [
    ['fd', 'fdfind', ['.'], lister(), 'list_files recursive', '≤ 1.5× fd'],
    [
      'fd -u',
      'fdfind',
      ['-u', '.'],
      lister({ include_ignored: true, include_hidden: true }),
      'list_files recursive, include_ignored + include_hidden',
      '≤ 1.5× fd -u',
    ],
    [
      'fd --size',
      'fdfind',
      ['--size', '-1t', '.'],
      lister({ sizes: true }),
      '  with sizes: true, against fd --size',
      'context',
    ],
    ['find', 'find', ['.'], lister(), '  list_files recursive, against find', 'context'],
  ] as const) {
    const ref = reference(name, command, args);
    const compared = await compare(runs, ours, ref.external);
    const what =
      name === 'fd --size'
        ? 'fd also statting every file, as list_files does for sizes'
        : name === 'find'
          ? `find, no .gitignore: ${lines(compared.stdout)} entries`
          : `${listed} entries (${name}: ${lines(compared.stdout)})`;
    rows.push({
      name: label,
      ...measuredAgainst(ref, compared),
      target,
      ...(target === 'context' ? {} : { ratioLimit: 1.5 }),
      check: what,
    });
  }
  await mcpListRows(f, rows, reference);
  if (onlyList) return;

  const logPath = relative(corpus, corpus.logFile);
  const readRow = readRowMaker(rows, reference);
  log('read_file range at line 1,500,000...');
  await readRow(
    { name: 'read_file lines 1,500,000-1,500,100 of 200 MB', target: '≤ 2× sed', ratioLimit: 2 },
    ['sed -n', 'sed', ['-n', `${rangeStart},${rangeEnd}p`, logPath]],
    async () => {
      const read = await readText(f, { path: logPath, start_line: rangeStart, end_line: rangeEnd });
      const exact = read.total_lines === corpusLayout.logLines;
      return { content: read.content, exact, note: exact ? ', total_lines exact' : ', total_lines WRONG' };
    },
  );

  // Issue 16: the last 50 lines (against tail) and 50 lines in the middle (against sed -n).
  log('read_file last 50 lines...');
  await readRow(
    { name: 'read_file last 50 lines of 200 MB', target: '≤ 2× tail', ratioLimit: 2 },
    ['tail -n 50', 'tail', ['-n', '50', logPath]],
    async () => {
      const read = await readTail(f, logPath);
      return { content: read.content, note: ` (${read.form})` };
    },
  );

  log('read_file 50 lines at line 1,000,000...');
  await readRow(
    { name: 'read_file lines 1,000,000-1,000,049 of 200 MB', target: '≤ 1.2× sed', ratioLimit: 1.2 },
    ['sed -n', 'sed', ['-n', `${midStart},${midStart + 49}p`, logPath]],
    () => readText(f, { path: logPath, start_line: midStart, end_line: midStart + 49 }),
  );

  log('edit_file on the 5 MB file...');
  let value = 0;
  const edit = await timeRuns(runs, async () => {
    await f.call(editFileTool, {
      path: relative(corpus, corpus.bigSourceFile),
      oldText: `${corpusLayout.editMarker} ${value}`,
      newText: `${corpusLayout.editMarker} ${value + 1}`,
    });
    value += 1;
  });
  // Leave the file as generated.
  await f.call(editFileTool, {
    path: relative(corpus, corpus.bigSourceFile),
    oldText: `${corpusLayout.editMarker} ${value}`,
    newText: `${corpusLayout.editMarker} 0`,
  });
  rows.push({
    name: 'edit_file on a 5 MB file (fsync, verify, backup)',
    ours: edit,
    target: '< 50 ms',
    absoluteLimitMs: 50,
    check: 'atomic write + read-back',
  });
}

/**
 * list_files as an MCP client gets it (the acceptance benchmark calls the tools over stdio): the
 * call, the result's structuredContent and text, serialized, parsed and validated by the client.
 */
async function mcpListRows(f: Familiar, rows: Row[], reference: Reference): Promise<void> {
  log('list_files over MCP...');
  const mcp = (f.mcp ??= await mcpRoundTrip(f.toolCalls));
  let chars = 0;
  for (const [name, args, extra] of [
    ['fd', ['.'], {}],
    ['fd -u', ['-u', '.'], { include_ignored: true, include_hidden: true }],
  ] as const) {
    const ref = reference(name, 'fdfind', args);
    const compared = await compare(
      runs,
      async () => {
        chars = await mcp.call('list_files', { path: '.', recursive: true, max_entries: 1_000_000, ...extra });
      },
      ref.external,
    );
    rows.push({
      name: `list_files recursive over MCP${name === 'fd' ? '' : ', include_ignored + include_hidden'}`,
      ours: compared.ours,
      reference: { name, timing: compared.reference, maxRssKb: undefined },
      ratio: compared.pairedRatio,
      target: 'context',
      check: `result message ${(chars / 1024 / 1024).toFixed(1)} MB (${name}: ${lines(compared.stdout)} lines)`,
    });
  }
}

/**
 * `run.mjs` runs every suite; `run.mjs tools`, `stream`, `lsp` or `mcp` one (npm run bench:tools /
 * bench:stream / bench:lsp / bench:mcp). The MCP suite needs the built app (`npm run build`): the
 * full run includes it only when that is there.
 */
async function main(suite: string | undefined): Promise<void> {
  if (suite !== undefined && suite !== 'tools' && suite !== 'stream' && suite !== 'lsp' && suite !== 'mcp') {
    throw new Error(`unknown suite ${suite}`);
  }
  let failed = false;
  if (suite === undefined || suite === 'tools') failed = (await toolsBench()) || failed;
  if (suite === undefined || suite === 'stream') {
    // Loaded only here, so the --child processes that measure the tools' RSS never load the chat core.
    const { runStreamBench } = await import('./stream-bench');
    failed = (await runStreamBench(log)) || failed;
  }
  if (suite === undefined || suite === 'lsp') {
    const { runLspSuite } = await import('./lsp-bench');
    failed = (await runLspSuite(log)) || failed;
  }
  if (suite === 'mcp' || (suite === undefined && existsSync(join(process.cwd(), 'out', 'main', 'mcp.js')))) {
    const { runMcpSuite } = await import('./mcp-bench');
    failed = (await runMcpSuite(log)) || failed;
  }
  if (failed) process.exitCode = 1;
}

if (process.argv[2] === '--child') await child(process.argv[3] ?? 'idle');
else await main(process.argv[2]);
