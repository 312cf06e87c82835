import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { familiarPaths } from '../main/platform/storage/paths';
import { readFileTool } from '../main/tools/index';
import { createToolEnvironment } from '../main/tools/kit/tool-services';
import { corpusLayout, ensureCorpus } from './corpus';
import { benchServices, benchToolCalls } from './tool-calls';

/**
 * `npm run bench:range`: read_file of 50 lines deep in the corpus's 200 MB log through the tool-call
 * pipeline, against `sed -n 'A,Bp'` on the same file: the first read of a file version (a scan that
 * also learns its line offsets) and a second read elsewhere (from the nearest checkpoint), each the
 * median of BENCH_RUNS, with the ratio to sed.
 */
const rounds = Number(process.env['BENCH_RUNS'] ?? 5);
const corpusRoot = resolve(process.env['BENCH_CORPUS'] ?? join(process.cwd(), 'bench', '.corpus'));
const log = (line: string) => process.stderr.write(`${line}\n`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function main(): Promise<void> {
  const corpus = await ensureCorpus(corpusRoot, log);
  const home = await mkdtemp(join(tmpdir(), 'familiar-bench-range-'));
  const paths = familiarPaths(home);
  const services = benchServices(paths);
  const env = await createToolEnvironment({ services, workspaceRoot: corpus.root });
  const call = benchToolCalls([readFileTool], env, paths.audit, services.limits);
  const path = corpus.logFile.slice(corpus.root.length + 1);
  const sed = (start: number) => {
    const began = performance.now();
    execFileSync('sed', ['-n', `${start},${start + 49}p`, corpus.logFile], { maxBuffer: 1 << 20 });
    return performance.now() - began;
  };
  const read = async (start: number) => {
    const began = performance.now();
    const result = await call(readFileTool, { path, start_line: start, end_line: start + 49 });
    const took = performance.now() - began;
    if (result.kind !== 'text' || result.lines_read !== 50 || result.total_lines !== corpusLayout.logLines) {
      throw new Error('read_file answered the wrong lines');
    }
    return took;
  };
  try {
    const sedMs: number[] = [];
    const firstMs: number[] = [];
    const againMs: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      sedMs.push(sed(1_000_000));
      // A new version of the file each round (same bytes, new mtime): the first read scans it.
      execFileSync('touch', [corpus.logFile]);
      firstMs.push(await read(1_000_000));
      againMs.push(await read(1_500_000 + round * 7));
    }
    const row = (name: string, values: number[]) =>
      `${name.padEnd(44)} ${median(values).toFixed(1).padStart(8)} ms  ${(median(values) / median(sedMs)).toFixed(2)}× sed`;
    log(`50 lines of a ${corpusLayout.logLines.toLocaleString('en')}-line log, median of ${rounds}:`);
    log(row("sed -n '1000000,1000049p'", sedMs));
    log(row('read_file 1,000,000 (first read of the version)', firstMs));
    log(row('read_file 1,500,000 (second read, offsets known)', againMs));
  } finally {
    await services.dispose();
    await rm(home, { recursive: true, force: true });
  }
}

await main();
