import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { familiarPaths } from '../main/platform/storage/paths';
import { corpusLayout } from './corpus';
import type { Corpus } from './corpus';
import { tableHead } from './measure';
import { ProcessMemory } from './process-memory';

/**
 * The MCP server's memory in each state of its indexes (issue 32 items 7 and 10), measured as
 * the issue measured it: a real familiar-mcp process (`out/main/mcp.js`) over stdio on the ≥ 60k-file
 * tree, its RSS read from /proc every 20 ms (worker threads included). Per state: the peak while it
 * ran, and the steady RSS after it (background work over, a full GC of the main thread, a pause).
 * The trigram index first (search_in_code), then the semantic index (file_semantic_search) in the
 * same process, and after a restart both answering from what they saved.
 *
 * The process is started with --expose-gc and a one-line preload that runs gc() on SIGUSR2: bench
 * only, the server itself has no such hook.
 */

export const familiarMcp = join(process.cwd(), 'out', 'main', 'mcp.js');

export interface MemoryRow {
  readonly state: string;
  readonly steadyKb: number;
  readonly peakKb: number;
  readonly check: string;
}

/** Targets of issue 32 item 7 for the whole process on this tree. */
const STEADY_LIMIT_KB = 400 * 1024;
const PEAK_LIMIT_KB = 600 * 1024;
const GC_PRELOAD = "process.on('SIGUSR2', () => globalThis.gc?.());\n";

interface Server {
  readonly client: Client;
  readonly memory: ProcessMemory;
  readonly pid: number;
}

async function start(root: string, home: string): Promise<Server> {
  const preload = join(home, 'gc-on-signal.cjs');
  if (!existsSync(preload)) await writeFile(preload, GC_PRELOAD);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--expose-gc', '--require', preload, familiarMcp, '--workspace', root, '--home', home, '--approve', 'all'],
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench-memory', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error('familiar-mcp has no pid');
  return { client, memory: new ProcessMemory(pid), pid };
}

async function search(server: Server, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await server.client.callTool({ name: 'search_in_code', arguments: { ...args, max_results: 1000 } });
  if (result.isError === true) throw new Error(`search_in_code: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Record<string, unknown>;
}

/** RSS once the background work is over, the main thread collected and a second gone by. */
async function steady(server: Server): Promise<number> {
  await server.memory.quiet();
  process.kill(server.pid, 'SIGUSR2');
  await sleep(1000);
  return server.memory.rssKb();
}

/** A row after some work: the peak while it ran, then the steady RSS once it is over. */
async function rowAfter(server: Server, state: string, check: string): Promise<MemoryRow> {
  return { state, peakKb: server.memory.takePeakKb(), steadyKb: await steady(server), check };
}

/** Waits for the saved index (the build's end) in `home`, then for the process to go quiet. */
async function built(server: Server, home: string, limitMs = 600_000): Promise<number> {
  const dir = familiarPaths(home).ngramIndexes;
  const start = performance.now();
  while (performance.now() - start < limitMs) {
    const names = await readdir(dir).catch(() => [] as string[]);
    if (names.some((name) => name.endsWith('.ngram'))) break;
    await sleep(100);
  }
  await server.memory.quiet();
  return performance.now() - start;
}

const steadySearches: readonly Record<string, unknown>[] = [
  { query: corpusLayout.needle },
  { query: corpusLayout.needle, case_sensitive: true },
  { query: 'export function \\w+Handler\\d', is_regex: true },
];

/** file_semantic_search once; answers its index state ('building' until the whole tree is indexed). */
async function semantic(server: Server, query: string): Promise<string> {
  const result = await server.client.callTool(
    { name: 'file_semantic_search', arguments: { query, top_k: 5 } },
    undefined,
    { timeout: 600_000 },
  );
  if (result.isError === true) throw new Error(`file_semantic_search: ${JSON.stringify(result.content)}`);
  return String((result.structuredContent as Record<string, unknown>)['state']);
}

/**
 * The semantic index built in the same process as the trigram index (a query every 5 s until one
 * answers `ready`): the row both indexes leave behind.
 */
async function semanticBuiltRow(server: Server, limitMs = 900_000): Promise<MemoryRow> {
  const start = performance.now();
  let queries = 0;
  let state = '';
  while (state !== 'ready' && performance.now() - start < limitMs) {
    if (queries > 0) await sleep(5000);
    state = await semantic(server, semanticQueries[queries % semanticQueries.length]!);
    queries += 1;
  }
  if (state !== 'ready') throw new Error(`the semantic index was not ready within ${limitMs / 1000} s`);
  await server.memory.quiet();
  const seconds = ((performance.now() - start) / 1000).toFixed(0);
  return rowAfter(
    server,
    '  then the semantic index built too (both indexes)',
    `${queries} semantic queries during its build of ${seconds} s`,
  );
}

const semanticQueries = ['parse the configuration options', 'handler for a module request', 'cache invalidation'];

/** Steady and warm searches after a state, as one row: the peak while they ran, steady after them. */
async function searchesRow(server: Server, runs: number, state: string): Promise<MemoryRow> {
  const engines = new Set<string>();
  for (let run = 0; run < runs; run += 1) {
    for (const args of steadySearches) engines.add(String((await search(server, args))['engine']));
    const query = `Module ${1000 + ((run * 7919) % 50_000)}:`;
    engines.add(String((await search(server, { query }))['engine']));
  }
  const check = `${runs * (steadySearches.length + 1)} searches, engine ${[...engines].join('/')}`;
  const highWater = `VmHWM ${(server.memory.highWaterKb() / 1024).toFixed(0)} MB over the process`;
  return rowAfter(server, state, `${check}; ${highWater}`);
}

/** One new workspace (a fresh home): the build in the same process, then a restart on its saved index. */
export async function indexMemoryRows(tree: Corpus, runs: number, log: (line: string) => void): Promise<MemoryRow[]> {
  if (!existsSync(familiarMcp)) throw new Error(`${familiarMcp} is missing: run \`npm run build\` first.`);
  const rows: MemoryRow[] = [];
  const home = await mkdtemp(join(tmpdir(), 'familiar-bench-memory-'));
  try {
    log(`memory: familiar-mcp on ${tree.root}, a new workspace...`);
    const first = await start(tree.root, home);
    try {
      rows.push({
        state: 'started (no search yet)',
        steadyKb: await steady(first),
        peakKb: first.memory.takePeakKb(),
        check: '',
      });
      const answered = await search(first, steadySearches[0]!);
      const buildMs = await built(first, home);
      rows.push(
        await rowAfter(
          first,
          'new workspace: first search, the index built and saved',
          `first answer by ${String(answered['engine'])}; build + save ${(buildMs / 1000).toFixed(1)} s`,
        ),
      );
      rows.push(await searchesRow(first, runs, '  then steady and warm searches (same process)'));
      rows.push(await semanticBuiltRow(first));
    } finally {
      first.memory.stop();
      await first.client.close();
    }

    log('memory: a restart on the saved index...');
    const second = await start(tree.root, home);
    try {
      rows.push({
        state: 'restart: started (no search yet)',
        steadyKb: await steady(second),
        peakKb: second.memory.takePeakKb(),
        check: '',
      });
      const answered = await search(second, steadySearches[0]!);
      await second.memory.quiet();
      rows.push(
        await rowAfter(
          second,
          'restart: first search, the saved index opened (and refreshed)',
          `first answer by ${String(answered['engine'])}`,
        ),
      );
      rows.push(await searchesRow(second, runs, '  then steady and warm searches'));
      const states = [];
      for (const query of semanticQueries) states.push(await semantic(second, query));
      await second.memory.quiet();
      rows.push(
        await rowAfter(
          second,
          '  then semantic queries on the saved semantic index',
          `${semanticQueries.length} queries, answered ${states.join('/')}`,
        ),
      );
    } finally {
      second.memory.stop();
      await second.client.close();
    }
  } finally {
    await rm(home, { recursive: true, force: true });
  }
  return rows;
}

/** The memory table (stdout); answers whether a target was missed. */
export function reportMemory(rows: readonly MemoryRow[]): boolean {
  const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
  const table = tableHead(['familiar-mcp RSS', { right: 'steady' }, { right: 'peak' }, 'target', 'check']);
  let failed = false;
  for (const row of rows) {
    const pass = row.steadyKb <= STEADY_LIMIT_KB && row.peakKb <= PEAK_LIMIT_KB;
    failed ||= !pass;
    table.push(
      `| ${row.state} | ${mb(row.steadyKb)} | ${mb(row.peakKb)} | steady ≤ 400 MB, peak ≤ 600 MB ${pass ? '✓' : '✗'} | ${row.check} |`,
    );
  }
  process.stdout.write(`${table.join('\n')}\n`);
  return failed;
}
