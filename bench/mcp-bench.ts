import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { corpusLayout, ensureCorpus } from './corpus';
import type { Corpus } from './corpus';
import { compareCalls, paired, runOnce, runtimeLine, tableHead } from './measure';
import type { Paired } from './measure';

/**
 * `npm run bench:mcp`: what an agent pays per call over MCP stdio (the way issue 16's acceptance
 * benchmark measures). Familiar's MCP server (`out/main/mcp.js`, built by `npm run build`) against
 * the MCP reference filesystem server (@modelcontextprotocol/server-filesystem) on the same corpus,
 * both driven by the SDK's client, calls alternating; search against ripgrep, which the reference
 * server cannot do (its search_files matches names only).
 */

const runs = Number(process.env['BENCH_RUNS'] ?? 5);
/**
 * BENCH_ONLY=read, edit or first: only the read_file rows, the edit_file row, or the first searches
 * (a new server's start, in a new workspace, and after a restart; quick before/after figures).
 */
const only = process.env['BENCH_ONLY'];
const wanted = (section: 'read' | 'edit' | 'first' | 'other') => only === undefined || only === '' || only === section;
const corpusRoot = resolve(process.env['BENCH_CORPUS'] ?? join(process.cwd(), 'bench', '.corpus'));
const familiarServer = join(process.cwd(), 'out', 'main', 'mcp.js');

interface McpRow {
  readonly name: string;
  readonly reference: string;
  readonly compared: Paired;
  readonly limit: number;
  /** A target in milliseconds of Familiar's median instead of a ratio (issue 28: a confined command's cost). */
  readonly limitMs?: number;
  readonly check: string;
}

type Log = (line: string) => void;

async function connect(name: string, args: readonly string[]): Promise<Client> {
  const client = new Client({ name: `bench-${name}`, version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [...args], stderr: 'ignore' }));
  return client;
}

/** The MCP reference filesystem server's entry, run with this Node. */
const referenceServer = (): string =>
  createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

/** Familiar's MCP server on `workspace`, its data in `home`, every call approved. */
export const familiarArgs = (workspace: string, home: string): string[] => [
  familiarServer,
  '--workspace',
  workspace,
  '--home',
  home,
  '--approve',
  'all',
];

/** One tool call; a failed call throws, since a figure of a failure would be a lie. */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text?: string }[]).find((part) => part.type === 'text')?.text;
  if (result.isError === true) throw new Error(`${name}: ${text ?? 'failed'}`);
  return (result.structuredContent as Record<string, unknown> | undefined) ?? { text };
}

/** Familiar over MCP against the reference server and ripgrep; answers whether a target was missed. */
export async function runMcpSuite(log: Log): Promise<boolean> {
  if (!existsSync(familiarServer)) throw new Error(`${familiarServer} is missing: run \`npm run build\` first.`);
  const corpus = await ensureCorpus(corpusRoot, log);
  log(`MCP servers on ${runtimeLine()}`);
  const home = await mkdtemp(join(tmpdir(), 'familiar-bench-mcp-'));
  const ours = await connect('familiar', familiarArgs(corpus.root, home));
  // The reference server edits its own copy of the 5 MB file: Familiar refuses to edit a file that
  // changed since it last read it, as it would after the other server's edit.
  const referenceCopy = join(home, 'generated.ts');
  await copyFile(corpus.bigSourceFile, referenceCopy);
  const theirs = await connect('reference', [referenceServer(), corpus.root, home]);
  try {
    const rows = await measureRows(corpus, referenceCopy, ours, theirs, log);
    return report(rows);
  } finally {
    await Promise.all([ours.close(), theirs.close()]);
    await rm(home, { recursive: true, force: true });
  }
}

async function measureRows(
  corpus: Corpus,
  referenceCopy: string,
  ours: Client,
  theirs: Client,
  log: Log,
): Promise<McpRow[]> {
  const rows: McpRow[] = [];

  if (wanted('read')) await readRows(corpus, ours, theirs, rows, log);
  if (wanted('edit')) await editRow(corpus, referenceCopy, ours, theirs, rows, log);
  if (wanted('first')) {
    await startRow(corpus, rows, log);
    await firstSearchRows(corpus, rows, log);
    await restartRow(corpus, rows, log);
  }
  if (wanted('other')) await otherRows(corpus, ours, rows, log);
  return rows;
}

async function readRows(corpus: Corpus, ours: Client, theirs: Client, rows: McpRow[], log: Log): Promise<void> {
  const logPath = corpus.logFile.slice(corpus.root.length + 1);
  log('MCP: the last 50 lines of the 200 MB log...');
  const tailCommand = { command: 'tail', args: ['-n', '50', logPath], cwd: corpus.root };
  const expected = runOnce(tailCommand).stdout;
  let ourTail = '';
  let theirLines = 0;
  const readTail = async () => {
    ourTail = `${String((await call(ours, 'read_file', { path: logPath, start_line: -50 }))['content'])}\n`;
  };
  const tailVsReference = await compareCalls(runs, readTail, async () => {
    const text = String((await call(theirs, 'read_text_file', { path: corpus.logFile, tail: 50 }))['content']);
    theirLines = text.split('\n').filter(Boolean).length;
  });
  const tailVsCommand = await compareCalls(runs, readTail, () => runOnce(tailCommand));
  const sameAsTail = ourTail === expected ? 'same text as tail' : 'DIFFERS from tail';
  rows.push(
    {
      name: 'read_file last 50 lines of 200 MB',
      reference: 'tail -n 50',
      compared: tailVsCommand,
      limit: 2,
      check: sameAsTail,
    },
    {
      name: '  same, against the reference server',
      reference: 'reference read_text_file tail: 50',
      compared: tailVsReference,
      limit: 2,
      // Its tail counts the empty string after the file's last newline as a line.
      check: `${sameAsTail}; the reference answered ${theirLines} lines`,
    },
  );

  // Issue 32 item 6: 50 lines at line 1,000,000 (the warm-up call is the first read of this
  // version of the file), then 50 lines somewhere else each run (the line offsets already known).
  log('MCP: read_file 50 lines at line 1,000,000 of the 200 MB log...');
  let ourRange = '';
  const readRange = async (start: number) => {
    const read = await call(ours, 'read_file', { path: logPath, start_line: start, end_line: start + 49 });
    ourRange = `${String(read['content'])}\n`;
  };
  const sed = (start: number) => ({
    command: 'sed',
    args: ['-n', `${start},${start + 49}p`, logPath],
    cwd: corpus.root,
  });
  const middle = await compareCalls(
    runs,
    () => readRange(1_000_000),
    () => runOnce(sed(1_000_000)),
  );
  const sameAsSed = (start: number) =>
    ourRange === runOnce(sed(start)).stdout ? 'same text as sed' : 'DIFFERS from sed';
  rows.push({
    name: 'read_file lines 1,000,000-1,000,049 of 200 MB',
    reference: 'sed -n',
    compared: middle,
    limit: 1.2,
    check: sameAsSed(1_000_000),
  });
  let elsewhere = 0;
  const starts = (i: number) => 200_000 + ((i * 370_001) % 1_700_000);
  const another = await compareCalls(
    runs,
    () => readRange(starts(elsewhere)),
    () => runOnce(sed(starts((elsewhere += 1)))),
  );
  rows.push({
    name: '  50 lines elsewhere in it, a new place each run',
    reference: 'sed -n',
    compared: another,
    limit: 1.2,
    check: sameAsSed(starts(elsewhere)),
  });
}

async function editRow(
  corpus: Corpus,
  referenceCopy: string,
  ours: Client,
  theirs: Client,
  rows: McpRow[],
  log: Log,
): Promise<void> {
  const bigPath = corpus.bigSourceFile.slice(corpus.root.length + 1);

  log('MCP: edit_file on the 5 MB file...');
  // The marker's number as an earlier, interrupted run may have left it.
  const start = Number(
    new RegExp(`${corpusLayout.editMarker} (\\d+)`).exec(await readFile(referenceCopy, 'utf8'))?.[1],
  );
  const edits = { ours: start, theirs: start };
  const step = (side: keyof typeof edits) => ({
    oldText: `${corpusLayout.editMarker} ${edits[side]}`,
    newText: `${corpusLayout.editMarker} ${(edits[side] += 1)}`,
  });
  const edit = await compareCalls(
    runs,
    async () => {
      await call(ours, 'edit_file', { path: bigPath, ...step('ours') });
    },
    async () => {
      await call(theirs, 'edit_file', { path: referenceCopy, edits: [step('theirs')] });
    },
  );
  // Leave the corpus as generated.
  await call(ours, 'edit_file', {
    path: bigPath,
    oldText: `${corpusLayout.editMarker} ${edits.ours}`,
    newText: `${corpusLayout.editMarker} 0`,
  });
  rows.push({
    name: 'edit_file on a 5 MB file',
    reference: 'reference edit_file',
    compared: edit,
    limit: 0.5,
    check: 'one exact replacement each (Familiar: atomic write, fsync, read-back, backup)',
  });
}

async function otherRows(corpus: Corpus, ours: Client, rows: McpRow[], log: Log): Promise<void> {
  log('MCP: run_command("true"), confined, against starting `true` directly...');
  let confined = false;
  const trueCommand = { command: 'true', args: [], cwd: corpus.root };
  const runTrue = await compareCalls(
    runs * 4,
    async () => {
      confined = (await call(ours, 'run_command', { command: 'true' }))['confined'] === true;
    },
    () => runOnce(trueCommand),
  );
  rows.push({
    name: 'run_command("true"), end to end',
    reference: 'spawn true',
    compared: runTrue,
    limit: Infinity,
    limitMs: 60,
    check: confined ? 'ran confined (bubblewrap)' : 'ran UNCONFINED: no bubblewrap here',
  });

  log('MCP: search_in_code against ripgrep, steady (the index built)...');
  // Steady: the trigram index built and its watcher vouching (issue 32's steady state). A rare word
  // is then the index's; a broad regex ripgrep's walk, the files the index vouches for unconfirmed.
  await untilIndexReady(ours, corpusLayout.needle, true);
  for (const [name, args, rgArgs] of [
    ['rare literal, case-insensitive', { query: corpusLayout.needle }, ['-n', '-i', corpusLayout.needle]],
    [
      'regex',
      { query: 'export function \\w+Handler\\d', is_regex: true },
      ['-n', '-i', 'export function \\w+Handler\\d'],
    ],
  ] as const) {
    let total = 0;
    // The check says which engine answered each timed call.
    const engines = new Map<string, number>();
    const rg = { command: 'rg', args: [...rgArgs, '.'], cwd: corpus.root };
    const search = await compareCalls(
      runs,
      async () => {
        const found = await call(ours, 'search_in_code', { ...args, max_results: 1000 });
        total = Number(found['total_matches']);
        engines.set(String(found['engine']), (engines.get(String(found['engine'])) ?? 0) + 1);
      },
      () => runOnce(rg),
      SETTLE_MS,
    );
    rows.push({
      name: `search_in_code, steady: ${name}`,
      reference: 'rg',
      compared: search,
      limit: 1.2,
      check:
        `${total} matching lines (rg: ${runOnce(rg).stdout.split('\n').filter(Boolean).length}); ` +
        `engine ${[...engines].map(([engine, calls]) => `${engine} ×${calls}`).join(', ')} (warm-up included)`,
    });
  }
}

/**
 * The pause after each steady search before the next reference run (compareCalls): the server
 * makes its next ripgrep's sandbox 400 ms after a search's ripgrep ends (prestarted-launch.ts).
 */
const SETTLE_MS = 1000;

/**
 * How long a client waits for a new server before it can call anything: spawned, started, and its
 * answer to initialize (the SDK client's connect), each run with a new home; the reference server
 * on the same folder just before. An agent pays it at each session's start.
 */
async function startRow(corpus: Corpus, rows: McpRow[], log: Log): Promise<void> {
  log('MCP: a new server until it answers initialize, against the reference server...');
  const timedStart = async (name: string, args: readonly string[]): Promise<number> => {
    const start = performance.now();
    const client = await connect(name, args);
    const ms = performance.now() - start;
    await client.close();
    return ms;
  };
  const ours: number[] = [];
  const reference: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    reference.push(await timedStart('reference-start', [referenceServer(), corpus.root]));
    const home = await mkdtemp(join(tmpdir(), 'familiar-bench-start-'));
    try {
      ours.push(await timedStart('familiar-start', familiarArgs(corpus.root, home)));
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }
  rows.push({
    name: 'a new server until it answers initialize (new home)',
    reference: 'reference server',
    compared: paired(ours, reference),
    limit: 3,
    check: 'the SDK client’s connect: spawn, start, initialize',
  });
}

/** How one run of a first-search row gets its server's home, and gives it back. */
interface FirstHome {
  readonly take: () => Promise<string>;
  readonly giveBack: (home: string) => Promise<void>;
}

/**
 * A first-search row: each run, rg just before, then a new Familiar MCP server on the home `homes`
 * gives, idle `idleMs` first, and its first search_in_code call timed alone; answers the state of
 * the trigram index each first call met.
 */
async function firstCallRow(
  corpus: Corpus,
  rows: McpRow[],
  row: { readonly name: string; readonly word: string; readonly idleMs: number; readonly homes: FirstHome },
  describe: (states: readonly string[]) => string,
): Promise<void> {
  const rg = { command: 'rg', args: ['-n', '-i', '-F', row.word, '.'], cwd: corpus.root };
  const expected = runOnce(rg).stdout.split('\n').filter(Boolean).length;
  const ours: number[] = [];
  const reference: number[] = [];
  const states: string[] = [];
  let total = 0;
  for (let run = 0; run < runs; run += 1) {
    reference.push(runOnce(rg).ms);
    const home = await row.homes.take();
    const server = await connect('familiar-first', familiarArgs(corpus.root, home));
    try {
      if (row.idleMs > 0) await sleep(row.idleMs);
      const start = performance.now();
      const found = await call(server, 'search_in_code', { query: row.word, max_results: 1000 });
      ours.push(performance.now() - start);
      total = Number(found['total_matches']);
      states.push(indexState(found));
    } finally {
      await server.close();
      await row.homes.giveBack(home);
    }
  }
  rows.push({
    name: `search_in_code: ${row.name}`,
    reference: 'rg',
    compared: paired(ours, reference),
    limit: 1.2,
    check: `${total} matching lines (rg: ${expected}); ${describe(states)}`,
  });
}

/**
 * Searches for `word` until the trigram index is ready (the first search starts its build, later
 * ones say how far it is) and, with `answering`, answers it itself (its change watcher vouching).
 */
async function untilIndexReady(client: Client, word: string, answering: boolean): Promise<void> {
  for (let asked = 0; ; asked += 1) {
    const found = await call(client, 'search_in_code', { query: word, max_results: 1 });
    if (indexState(found) === 'ready' && (!answering || found['engine'] === 'index')) return;
    if (asked === 120) throw new Error('the trigram index was not ready after 4 minutes');
    await sleep(2000);
  }
}

/** The trigram index's state in a search_in_code answer ('?' without one). */
const indexState = (found: Record<string, unknown>) => (found['index'] as { state?: string } | undefined)?.state ?? '?';

/**
 * The first search in a new workspace, as an agent meets it (issue 32): each run starts a new
 * Familiar MCP server with a new home (no index, nothing warm in it), times its first
 * search_in_code call alone, and closes it; rg runs just before, with the server not yet started.
 * A rare literal, and a word in most files (the case ripgrep's walk names the most candidates for);
 * the rare literal again once the server has been idle a moment, as most clients call it.
 */
async function firstSearchRows(corpus: Corpus, rows: McpRow[], log: Log): Promise<void> {
  log('MCP: the first search in a new workspace, a new server and home each run, against ripgrep...');
  const fresh: FirstHome = {
    take: () => mkdtemp(join(tmpdir(), 'familiar-bench-first-')),
    giveBack: (home) => rm(home, { recursive: true, force: true }),
  };
  for (const [name, word, idleMs] of [
    ['rare literal', corpusLayout.needle, 0],
    ['a word in most files', 'handler', 0],
    // As a client that connects at its own start and searches later meets it: the server's start over.
    ['rare literal, the server idle 2.5 s first', corpusLayout.needle, 2500],
  ] as const) {
    await firstCallRow(
      corpus,
      rows,
      { name: `first search in a new workspace, ${name}`, word, idleMs, homes: fresh },
      () => 'a new server and home each run',
    );
  }
}

/**
 * The first search after a restart, as an agent meets it (issue 32): the trigram index is built and
 * saved once by one server, then each run starts a new server on that home (the saved index loads
 * while the search runs) and times its first search_in_code call alone; rg runs just before.
 */
async function restartRow(corpus: Corpus, rows: McpRow[], log: Log): Promise<void> {
  log('MCP: the first search after a restart, a new server each run on the home of a built index...');
  const word = corpusLayout.needle;
  const home = await mkdtemp(join(tmpdir(), 'familiar-bench-restart-'));
  try {
    const builder = await connect('familiar-build', familiarArgs(corpus.root, home));
    try {
      await untilIndexReady(builder, word, false);
    } finally {
      await builder.close();
    }
    // At once, as an agent's first call; and once the server has been idle a moment, as most clients
    // call it: by then the index has opened and refreshed in the background (core/saved-search-index.ts).
    for (const [name, idleMs] of [
      ['first search after a restart (a saved index), rare literal', 0],
      ['  the same, the server idle 2.5 s first', 2500],
    ] as const) {
      await firstCallRow(
        corpus,
        rows,
        { name, word, idleMs, homes: { take: () => Promise.resolve(home), giveBack: () => Promise.resolve() } },
        (states) => `a new server each run, index ${states.join('/')}`,
      );
    }
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

function report(rows: readonly McpRow[]): boolean {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const table = [
    ...tableHead([
      'over MCP stdio',
      'Familiar (median)',
      'reference (median)',
      'ratio (paired median)',
      'target',
      'check',
    ]),
  ];
  let failed = false;
  for (const row of rows) {
    const pass =
      row.limitMs === undefined ? row.compared.pairedRatio <= row.limit : row.compared.ours.medianMs <= row.limitMs;
    failed ||= !pass;
    const target = row.limitMs === undefined ? `≤ ${row.limit}×` : `≤ ${row.limitMs} ms`;
    table.push(
      `| ${row.name} | ${ms(row.compared.ours.medianMs)} | ${row.reference} ${ms(row.compared.reference.medianMs)} | ` +
        `${row.compared.pairedRatio.toFixed(2)}× | ${target} ${pass ? '✓' : '✗'} | ${row.check} |`,
    );
  }
  process.stdout.write(`${table.join('\n')}\n`);
  return failed;
}
