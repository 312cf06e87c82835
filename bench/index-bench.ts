import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { familiarPaths } from '../main/platform/storage/paths';
import type { AnyTool } from '../main/tools/define-tool';
import { searchInCodeTool } from '../main/tools/index';
import { createToolEnvironment } from '../main/tools/kit/tool-services';
import type { Corpus } from './corpus';
import { runOnce, summarize } from './measure';
import type { Timing } from './measure';
import { benchServices, benchToolCalls } from './tool-calls';

/** What the index rows report (bench/run.ts turns them into table rows). */
export interface IndexFigures {
  readonly buildMs: number;
  readonly files: number;
  readonly textBytes: number;
  readonly diskBytes: number;
  readonly memoryBytes: number;
  /**
   * RSS of this process after the build minus before it (main thread and worker threads, the
   * threads already started by a scan before), and the V8 heap + array buffers kept (after a GC).
   */
  readonly rssDeltaBytes: number;
  readonly retainedBytes: number;
  readonly reopenMs: number;
  readonly ours: Timing;
  readonly rg: Timing;
  /** Median of per-run ratios ours / rg. */
  readonly ratio: number;
  readonly queries: readonly { pattern: string; ours: number; rg: number; candidates: number | undefined }[];
}

const median = (values: readonly number[]) => summarize(values).medianMs;

/** CPU time (user + system) of one run of a command, by GNU time; NaN without /usr/bin/time. */
function cpuMs(command: string, args: readonly string[], cwd: string): number {
  const timed = spawnSync('/usr/bin/time', ['-f', '%U %S', command, ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const [user, system] = (timed.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
  return ((user ?? NaN) + (system ?? NaN)) * 1000;
}

/**
 * search_in_code's trigram index on the corpus (issue 16 item 4): the build in the background
 * (time, size on disk and in memory against the text indexed, RSS), a reopen from the data folder,
 * then warm selective queries, a new pattern each run (nothing cached), against ripgrep with the
 * same pattern, match counts compared.
 */
export async function indexFigures(corpus: Corpus, runs: number, log: (line: string) => void): Promise<IndexFigures> {
  const home = await mkdtemp(join(tmpdir(), 'familiar-bench-index-'));
  const paths = familiarPaths(home);
  try {
    let indexOn = false;
    const services = benchServices(paths, () => indexOn);
    const env = await createToolEnvironment({ services, workspaceRoot: corpus.root });
    // A scan first: the worker threads are up and the code warm before the baseline is taken.
    const scan = benchToolCalls([searchInCodeTool] as AnyTool[], env, paths.audit, services.limits);
    await scan(searchInCodeTool, { query: 'Module 999999:', max_results: 10 });
    indexOn = true;
    const used = () => {
      global.gc?.(); // node --expose-gc (npm run bench:tools)
      const memory = process.memoryUsage();
      return { rss: memory.rss, retained: memory.heapUsed + memory.arrayBuffers };
    };
    const before = used();
    const index = services.ngramIndexes.for(env.workspaceRoot);
    log('index build...');
    const started = performance.now();
    index.ready(env.sandbox);
    const built = await index.settled();
    const buildMs = performance.now() - started;
    if (built.state !== 'ready') throw new Error(`index ${built.state}: ${built.error ?? ''}`);
    const after = used();
    const rssDeltaBytes = after.rss - before.rss;
    const retainedBytes = after.retained - before.retained;
    await services.dispose();

    // A new run of the app: the index comes back from the data folder.
    const reopenedServices = benchServices(paths, () => true);
    const reopenedEnv = await createToolEnvironment({ services: reopenedServices, workspaceRoot: corpus.root });
    const reopened = reopenedServices.ngramIndexes.for(reopenedEnv.workspaceRoot);
    const reopenStart = performance.now();
    reopened.ready(reopenedEnv.sandbox);
    const status = await reopened.settled();
    const reopenMs = performance.now() - reopenStart;
    const call = benchToolCalls([searchInCodeTool] as AnyTool[], reopenedEnv, paths.audit, reopenedServices.limits);

    log('warm selective queries, a new pattern each run...');
    const queries: IndexFigures['queries'][number][] = [];
    // The first line of each generated source file is "// Module <n>: ..."; n differs per run.
    const pattern = (run: number) => `Module ${1000 + ((run * 7919) % 25_000)}:`;
    await call(searchInCodeTool, { query: 'Module 999999:', max_results: 1000 }); // warm-up (JIT, threads)
    const cpu: { ours: number; rg: number }[] = [];
    for (let run = 0; run < runs; run += 1) {
      const query = pattern(run);
      const cpuStart = process.cpuUsage(); // the whole process: main thread and file workers
      const start = performance.now();
      const result = await call(searchInCodeTool, { query, max_results: 1000 });
      const ours = performance.now() - start;
      const cpuUsed = process.cpuUsage(cpuStart);
      cpu.push({
        ours: (cpuUsed.user + cpuUsed.system) / 1000,
        rg: cpuMs('rg', ['-n', '-i', '--', query, '.'], corpus.root),
      });
      if (result.engine !== 'index') throw new Error(`engine ${result.engine}, not the index`);
      const rg = runOnce({ command: 'rg', args: ['-n', '-i', '--', query, '.'], cwd: corpus.root });
      const rgLines = rg.stdout.split('\n').filter((line) => line !== '').length;
      if (rgLines !== result.total_matches) {
        throw new Error(`'${query}': ${result.total_matches} matching lines, rg ${rgLines}`);
      }
      queries.push({ pattern: query, ours, rg: rg.ms, candidates: result.index?.candidates });
    }
    log(
      `warm queries, CPU time (user + system), median: ours ${median(cpu.map((c) => c.ours)).toFixed(1)} ms, ` +
        `rg ${median(cpu.map((c) => c.rg)).toFixed(1)} ms; per query ${cpu.map((c) => `${c.ours.toFixed(0)}/${c.rg.toFixed(0)}`).join(' ')}`,
    );
    await reopenedServices.dispose();
    return {
      buildMs,
      files: built.files,
      textBytes: built.textBytes,
      diskBytes: status.diskBytes ?? 0,
      memoryBytes: built.memoryBytes,
      rssDeltaBytes,
      retainedBytes,
      reopenMs,
      ours: summarize(queries.map((query) => query.ours)),
      rg: summarize(queries.map((query) => query.rg)),
      ratio: median(queries.map((query) => query.ours / query.rg)),
      queries,
    };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
