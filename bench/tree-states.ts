import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { familiarMcp } from './index-memory';
import { familiarArgs } from './mcp-bench';
import { compareCalls, paired, runOnce, runtimeLine, summarize, tableHead } from './measure';
import type { External, Paired } from './measure';

/**
 * `npm run bench:tree -- <folder>`: issue 32's rows over MCP stdio on a tree you bring (an npm
 * install's node_modules, a monorepo), as the issue measured them: a real familiar-mcp
 * (`out/main/mcp.js`, so `npm run build` first) with its own home per state, against `rg` on the
 * same folder. The generated trees of `bench:mcp` and `bench:tools` are ours; this runs the same
 * states on one nobody here chose. Nothing in the folder is written (the homes are temporary).
 *
 * The words searched default to ones an npm install of React-era packages holds; TREE_RARE (a
 * literal in a few hundred lines), TREE_RESTART (another), TREE_REGEX (a broad regex) and
 * TREE_WARM (comma-separated selective literals) name others. BENCH_RUNS pairs per steady row (5).
 */
const runs = Number(process.env['BENCH_RUNS'] ?? 5);
const words = {
  rare: process.env['TREE_RARE'] ?? 'useSyncExternalStore',
  restart: process.env['TREE_RESTART'] ?? 'getBoundingClientRect',
  regex: process.env['TREE_REGEX'] ?? 'function \\w+Error\\(',
  warm: (
    process.env['TREE_WARM'] ??
    'forwardRef,requestAnimationFrame,structuredClone,WeakRef,queueMicrotask,AbortController,TextDecoder,MutationObserver'
  ).split(','),
};
const semanticQueries = ['parse the configuration options', 'handler for a module request', 'cache invalidation'];
const log = (line: string) => process.stderr.write(`${line}\n`);

interface TreeRow {
  readonly name: string;
  readonly ours: string;
  readonly reference: string;
  readonly ratio: string;
  readonly target: string;
  readonly met: boolean;
  readonly check: string;
}

/** `work` with a new Familiar home (a state of its own), removed after. */
async function withHome(work: (home: string) => Promise<void>): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), 'familiar-bench-tree-'));
  try {
    await work(home);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

async function connect(tree: string, home: string): Promise<Client> {
  const client = new Client({ name: 'bench-tree', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: familiarArgs(tree, home),
      stderr: 'ignore',
    }),
  );
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
  if (result.isError === true) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Record<string, unknown>;
}

const search = (client: Client, args: Record<string, unknown>) =>
  call(client, 'search_in_code', { max_results: 1000, ...args });

/** rg as the issue ran it beside a search: case-insensitive unless the call is case-sensitive. */
const rg = (tree: string, pattern: string, { regex = false, caseSensitive = false } = {}): External => ({
  command: 'rg',
  args: ['-n', caseSensitive ? '-s' : '-i', ...(regex ? [] : ['-F']), pattern, '.'],
  cwd: tree,
});
const lines = (stdout: string) => stdout.split('\n').filter(Boolean).length;

/** One timed call of ours beside one rg run, in a new server, rg first (its page cache as ours). */
async function firstSearch(
  tree: string,
  home: string,
  query: string,
): Promise<{ ours: number; ref: number; found: Record<string, unknown>; rgLines: number }> {
  const client = await connect(tree, home);
  try {
    const reference = runOnce(rg(tree, query));
    const start = performance.now();
    const found = await search(client, { query });
    return { ours: performance.now() - start, ref: reference.ms, found, rgLines: lines(reference.stdout) };
  } finally {
    await client.close();
  }
}

const ratioRow = (
  name: string,
  ours: number,
  ref: number,
  limit: number,
  check: string,
  reference = 'rg',
): TreeRow => ({
  name,
  ours: `${ours.toFixed(0)} ms`,
  reference: `${reference} ${ref.toFixed(0)} ms`,
  ratio: `${(ours / ref).toFixed(2)}×`,
  target: `≤ ${limit}×`,
  met: ours / ref <= limit,
  check,
});

const pairedRow = (name: string, compared: Paired, limit: number, check: string): TreeRow => ({
  ...ratioRow(name, compared.ours.medianMs, compared.reference.medianMs, limit, check),
  ratio: `${compared.pairedRatio.toFixed(2)}×`,
  met: compared.pairedRatio <= limit,
});

/** Polls with a word found nowhere until the trigram index says it is ready; answers the seconds. */
async function untilIndexReady(client: Client, limitMs = 900_000): Promise<number> {
  const start = performance.now();
  for (let poll = 0; performance.now() - start < limitMs; poll += 1) {
    const found = await search(client, { query: `zqxjv${poll}kw` });
    if ((found['index'] as { state?: string } | undefined)?.state === 'ready')
      return (performance.now() - start) / 1000;
    await sleep(1000);
  }
  throw new Error('the trigram index was not ready in time');
}

async function searchRows(tree: string, rows: TreeRow[]): Promise<void> {
  await withHome(async (home) => {
    log(`tree: first search in a new workspace ("${words.rare}")...`);
    const first = await firstSearch(tree, home, words.rare);
    rows.push(
      ratioRow(
        'first search in a new workspace (new server and home)',
        first.ours,
        first.ref,
        1.2,
        `${String(first.found['total_matches'])} lines (rg ${first.rgLines}), engine ${String(first.found['engine'])}`,
      ),
    );

    log('tree: the index built, then steady and warm searches...');
    const client = await connect(tree, home);
    try {
      const builtIn = await untilIndexReady(client);
      await sleep(2000);
      for (const [name, args, reference] of [
        ['steady, rare literal', { query: words.rare }, rg(tree, words.rare)],
        [
          'steady, rare literal, case-sensitive',
          { query: words.rare, case_sensitive: true },
          rg(tree, words.rare, { caseSensitive: true }),
        ],
        ['steady, broad regex', { query: words.regex, is_regex: true }, rg(tree, words.regex, { regex: true })],
      ] as const) {
        let found: Record<string, unknown> = {};
        const compared = await compareCalls(
          runs,
          async () => {
            found = await search(client, args);
          },
          () => runOnce(reference),
          1000,
        );
        const check = `${String(found['total_matches'])} lines (rg ${lines(runOnce(reference).stdout)}), engine ${String(found['engine'])}`;
        rows.push(
          pairedRow(
            name,
            compared,
            1.2,
            name === 'steady, rare literal' ? `${check}; index built in ${builtIn.toFixed(0)} s` : check,
          ),
        );
      }
      const ours: number[] = [];
      const theirs: number[] = [];
      for (const word of words.warm) {
        const start = performance.now();
        await search(client, { query: word });
        ours.push(performance.now() - start);
        theirs.push(runOnce(rg(tree, word)).ms);
        await sleep(500);
      }
      const warm = paired(ours, theirs);
      rows.push({
        ...pairedRow('warm, a new selective literal each call', warm, 0.25, ''),
        check: `${words.warm.length} words; per call ${ours.map((ms, at) => (ms / theirs[at]!).toFixed(2)).join(' ')}`,
      });
    } finally {
      await client.close();
    }

    log(`tree: first search after a restart ("${words.restart}")...`);
    const restarted = await firstSearch(tree, home, words.restart);
    rows.push(
      ratioRow(
        'first search after a restart (a new server on the saved index)',
        restarted.ours,
        restarted.ref,
        1.2,
        `${String(restarted.found['total_matches'])} lines (rg ${restarted.rgLines}), engine ${String(restarted.found['engine'])}`,
      ),
    );
  });
}

async function semanticRows(tree: string, rows: TreeRow[]): Promise<void> {
  await withHome(async (home) => {
    log('tree: file_semantic_search during its build, a query every 2 s...');
    const client = await connect(tree, home);
    const during: number[] = [];
    let coverage = '';
    try {
      for (let query = 0; query < 600; query += 1) {
        const start = performance.now();
        const answer = await call(client, 'file_semantic_search', {
          query: semanticQueries[query % semanticQueries.length],
          top_k: 5,
        });
        during.push(performance.now() - start);
        if (query === 1) coverage = JSON.stringify(answer['coverage'] ?? {});
        if (answer['state'] === 'ready') break;
        await sleep(2000);
      }
    } finally {
      await client.close();
    }
    const timing = summarize(during);
    const slowest = Math.max(...during);
    rows.push({
      name: 'file_semantic_search during its build',
      ours: `median ${timing.medianMs.toFixed(0)} ms, slowest ${slowest.toFixed(0)} ms`,
      reference: '',
      ratio: '',
      target: '≤ 1 s',
      met: slowest <= 1000,
      check: `${during.length} queries until ready; the second answered building, ${coverage}`,
    });
    log('tree: file_semantic_search after a restart...');
    const restarted = await connect(tree, home);
    try {
      const start = performance.now();
      const answer = await call(restarted, 'file_semantic_search', { query: semanticQueries[1], top_k: 5 });
      const ms = performance.now() - start;
      rows.push({
        name: '  the first query after a restart',
        ours: `${ms.toFixed(0)} ms`,
        reference: '',
        ratio: '',
        target: '≤ 1 s',
        met: ms <= 1000,
        check: `state ${String(answer['state'])}`,
      });
    } finally {
      await restarted.close();
    }
  });
}

/** familiar-mcp's exit after its input closes, both index builds running (issue 32 item 8). */
async function shutdownRow(tree: string, rows: TreeRow[]): Promise<void> {
  await withHome(async (home) => {
    log('tree: the exit after stdin closes, with both builds running...');
    const child = spawn(process.execPath, familiarArgs(tree, home), {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'search_in_code', arguments: { query: words.rare } },
    });
    send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'file_semantic_search', arguments: { query: 'x' } },
    });
    await sleep(4000);
    const exited = new Promise<number>((done) => child.once('exit', () => done(performance.now())));
    const start = performance.now();
    child.stdin.end();
    const ms = (await Promise.race([exited, sleep(10_000).then(() => Infinity)])) - start;
    if (!Number.isFinite(ms)) child.kill('SIGKILL');
    rows.push({
      name: 'exit after stdin closes, both builds running',
      ours: Number.isFinite(ms) ? `${ms.toFixed(0)} ms` : 'over 10 s',
      reference: '',
      ratio: '',
      target: '≤ 1 s',
      met: ms <= 1000,
      check: '4 s after a search and a semantic query',
    });
  });
}

async function main(): Promise<void> {
  const tree = process.argv[2] === undefined ? undefined : resolve(process.argv[2]);
  if (tree === undefined || !existsSync(tree)) throw new Error('usage: npm run bench:tree -- <folder>');
  if (!existsSync(familiarMcp)) throw new Error(`${familiarMcp} is missing: run \`npm run build\` first.`);
  log(runtimeLine());
  const rows: TreeRow[] = [];
  await searchRows(tree, rows);
  await semanticRows(tree, rows);
  await shutdownRow(tree, rows);
  const table = [
    ...tableHead([
      `over MCP stdio on ${tree}`,
      { right: 'Familiar' },
      { right: 'reference' },
      { right: 'ratio' },
      'target',
      'check',
    ]),
    ...rows.map(
      (row) =>
        `| ${row.name} | ${row.ours} | ${row.reference} | ${row.ratio} | ${row.target} ${row.met ? '✓' : '✗'} | ${row.check} |`,
    ),
  ];
  process.stdout.write(`${runtimeLine()}\n\n${table.join('\n')}\n`);
  process.exitCode = rows.every((row) => row.met) ? 0 : 1;
}

await main();
