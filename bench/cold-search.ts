import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { familiarPaths } from '../main/platform/storage/paths';
import type { AnyTool } from '../main/tools/define-tool';
import { searchInCodeTool } from '../main/tools/index';
import { createToolEnvironment } from '../main/tools/kit/tool-services';
import { corpusLayout, ensureCorpus } from './corpus';
import { runtimeLine, summarize } from './measure';
import { benchServices, benchToolCalls } from './tool-calls';

/**
 * `node bench/build.mjs cold-search && node out/bench/cold-search.mjs`: the cold search_in_code rows
 * alone (no index build), against rg run by run, in wall time and in CPU time (this process's
 * threads plus the ripgrep processes it waited for; rg's own CPU likewise). Quicker than
 * `BENCH_ONLY=search npm run bench:tools`, which also builds the trigram index; for before/after
 * figures of the scan engines. BENCH_RUNS (default 7), BENCH_CORPUS, BENCH_ENGINE=js as in run.ts.
 */

const runs = Number(process.env['BENCH_RUNS'] ?? 7);
const corpusRoot = resolve(process.env['BENCH_CORPUS'] ?? join(process.cwd(), 'bench', '.corpus'));
const log = (line: string) => process.stderr.write(`${line}\n`);

/** CPU ms of this process (all threads) and of the children it waited for, from /proc (Linux only). */
function cpuNow(): { self: number; children: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14-17 of proc(5) (utime, stime, cutime, cstime) are 11-14 here, in clock ticks (100 Hz).
  const tick = (at: number) => Number(fields[at]) * 10;
  return { self: tick(11) + tick(12), children: tick(13) + tick(14) };
}

const median = (values: readonly number[]) => summarize(values).medianMs;

// BENCH_BALLAST_MB: memory held (touched) meanwhile, as the app's main process holds its own: a
// process start forks this process, and a fork costs more the more memory the process has.
const ballast = Array.from({ length: Number(process.env['BENCH_BALLAST_MB'] ?? 0) }, () => Buffer.alloc(1 << 20, 1));
const corpus = await ensureCorpus(corpusRoot, log);
log(runtimeLine());
const home = await mkdtemp(join(tmpdir(), 'familiar-bench-'));
const paths = familiarPaths(home);
const services = benchServices(paths);
const env = await createToolEnvironment({ services, workspaceRoot: corpus.root });
const call = benchToolCalls([searchInCodeTool] as AnyTool[], env, paths.audit, services.limits);

const searches = [
  { name: 'rare literal, -i', args: { query: corpusLayout.needle }, rg: ['-n', '-i', corpusLayout.needle] },
  {
    name: 'literal, case-sensitive',
    args: { query: corpusLayout.needle, case_sensitive: true },
    rg: ['-n', '-s', corpusLayout.needle],
  },
  { name: 'common literal', args: { query: 'return undefined' }, rg: ['-n', '-i', 'return undefined'] },
  {
    name: 'regex',
    args: { query: 'export function \\w+Handler\\d', is_regex: true },
    rg: ['-n', '-i', 'export function \\w+Handler\\d'],
  },
];
const only = process.env['BENCH_SEARCH'];
// Where ripgrep runs confined it walks the folders itself (issue 28 item 4); a file_pattern keeps
// the file-list mode (the sandbox's walk names every file on ripgrep's command line): '**' is
// every file, so the `list` column is the same search the way it ran before.
const rows: string[] = [
  '| search | ours wall | mode | list mode wall | rg wall | wall ratio | ours CPU | rg CPU | CPU ratio | matches |',
];
for (const search of searches) {
  if (only !== undefined && !search.name.startsWith(only)) continue;
  let mode = 'list';
  const ours = async (extra: { file_pattern?: string } = {}) => {
    const before = cpuNow();
    const start = performance.now();
    const result = await call(searchInCodeTool, { ...search.args, ...extra, max_results: 1000 });
    if (extra.file_pattern === undefined) mode = result.walk === 'ripgrep' ? 'walk' : 'list';
    const ms = performance.now() - start;
    const after = cpuNow();
    if (process.env['BENCH_TRACE'] !== undefined)
      log(
        `  ours: ${ms.toFixed(0)} ms wall, RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB, CPU ${after.self - before.self} ms here + ${after.children - before.children} ms children`,
      );
    return {
      ms,
      cpu: after.self - before.self + after.children - before.children,
      total: result.total_matches,
    };
  };
  const rg = () => {
    const before = cpuNow();
    const start = performance.now();
    const child = spawnSync('rg', [...search.rg, '.'], { cwd: corpus.root, maxBuffer: 1 << 30, encoding: 'utf8' });
    const ms = performance.now() - start;
    const after = cpuNow();
    const lines = child.stdout.split('\n').filter((line) => line !== '').length;
    return { ms, cpu: after.children - before.children, lines };
  };
  await ours();
  await ours({ file_pattern: '**' });
  rg();
  const listed: number[] = [];
  const wall: number[] = [];
  const cpu: number[] = [];
  const o = { ms: [] as number[], cpu: [] as number[] };
  const r = { ms: [] as number[], cpu: [] as number[] };
  let total = 0;
  let lines = 0;
  for (let i = 0; i < runs; i += 1) {
    const a = rg();
    const b = await ours();
    listed.push((await ours({ file_pattern: '**' })).ms);
    total = b.total;
    lines = a.lines;
    o.ms.push(b.ms);
    o.cpu.push(b.cpu);
    r.ms.push(a.ms);
    r.cpu.push(a.cpu);
    wall.push(b.ms / a.ms);
    cpu.push(b.cpu / Math.max(a.cpu, 10));
  }
  const row =
    `| ${search.name} | ${median(o.ms).toFixed(0)} ms | ${mode} | ${median(listed).toFixed(0)} ms | ${median(r.ms).toFixed(0)} ms | ${median(wall).toFixed(2)}× | ` +
    `${median(o.cpu).toFixed(0)} ms | ${median(r.cpu).toFixed(0)} ms | ${(median(o.cpu) / median(r.cpu)).toFixed(2)}× | ${total} (rg ${lines}) |`;
  log(row);
  rows.push(row);
}
process.stdout.write(`${rows.join('\n')}\n`);
await services.dispose();
ballast.length = 0;
await rm(home, { recursive: true, force: true });
