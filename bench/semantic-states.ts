import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { writeHeapSnapshot } from 'node:v8';
import { join, resolve } from 'node:path';
import { startScriptedEmbeddingsServer } from '../e2e/fixtures/scripted-embeddings-server';
import { familiarPaths } from '../main/platform/storage/paths';
import { fileSemanticSearchTool } from '../main/tools/index';
import { createToolEnvironment, createToolServices } from '../main/tools/kit/tool-services';
import { ensureCorpus } from './corpus';
import { scriptedEmbedder } from './scripted-embedder';
import { benchToolCalls } from './tool-calls';

/**
 * `npm run bench:semantic-states`: the semantic index on the generated tree (bench/corpus.ts) in each
 * state of issue 32 — a build from nothing (a query during it), the build's vectors, a restart (the
 * first query after it), steady — with the latency of the query and the process's RSS, steady (after
 * a GC and a pause) and peak (sampled every 20 ms) per state. Vectors come from a scripted local
 * server (BENCH_DIMS-dimension hashed words, 256 by default): Familiar's own costs, not a model's.
 * BENCH_CORPUS=<folder> BENCH_TREE_AS_IS=1 measures an existing tree instead (never rewritten).
 */
const corpusRoot = resolve(process.env['BENCH_CORPUS'] ?? join(process.cwd(), 'bench', '.corpus'));
const dims = Number(process.env['BENCH_DIMS'] ?? 256);
const log = (line: string) => process.stderr.write(`${line}\n`);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

const hashedWords = (text: string) => {
  const vector = new Array<number>(dims).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    vector[createHash('md5').update(word).digest().readUInt16LE(0) % dims]! += 1;
  }
  return vector;
};

/** RSS peak over a stretch of work, sampled every 20 ms. */
async function sampled<T>(work: () => Promise<T>): Promise<{ value: T; peak: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    const value = await work();
    return { value, peak: Math.max(peak, process.memoryUsage().rss) };
  } finally {
    clearInterval(timer);
  }
}

async function steadyRss(): Promise<number> {
  for (let round = 0; round < 3; round += 1) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((done) => setTimeout(done, 300));
  }
  const { rss, heapUsed, external } = process.memoryUsage();
  log(
    `  (RSS ${mb(rss)}: JS heap ${mb(heapUsed)}, external ${mb(external)}; load average ${loadavg()[0]?.toFixed(1)})`,
  );
  return rss;
}

async function main(): Promise<void> {
  // BENCH_TREE_AS_IS=1: an existing tree (the tools bench's 62k-file tree, an npm install), used as it is.
  const corpus =
    process.env['BENCH_TREE_AS_IS'] === '1'
      ? { root: corpusRoot, logFile: '', bigSourceFile: '', sourceFiles: 0 }
      : await ensureCorpus(corpusRoot, log);
  const home = await mkdtemp(join(tmpdir(), 'familiar-bench-states-'));
  const paths = familiarPaths(home);
  let passages = 0;
  const embeddings = await startScriptedEmbeddingsServer({
    vectorOf: (text) => {
      passages += 1;
      return hashedWords(text);
    },
    keepRequests: false,
  });
  const embedder = scriptedEmbedder(embeddings.url);
  const made = embedder();
  if (!made.ok) throw new Error(made.error.message);
  const open = async () => {
    const services = createToolServices({ paths, limits: { callsPerMinute: 1_000_000 }, embedder });
    const env = await createToolEnvironment({ services, workspaceRoot: corpus.root });
    const call = benchToolCalls([fileSemanticSearchTool], env, paths.audit, services.limits);
    const index = services.searchIndexes.for(env.sandbox);
    const query = async (text: string) => {
      const started = performance.now();
      const answer = await call(fileSemanticSearchTool, { query: text, top_k: 3 });
      const { state, coverage } = answer as { state?: string; coverage?: unknown };
      return { ms: performance.now() - started, state: state ?? (answer.complete ? 'complete' : 'partial'), coverage };
    };
    return { services, index, query };
  };
  const rows: string[] = [];
  const row = (state: string, figures: string) => rows.push(`${state.padEnd(34)} ${figures}`);
  try {
    log(`tree: ${corpus.root}; vectors of ${dims} dimensions`);
    const idle = await steadyRss();
    row('idle (before any index)', `RSS ${mb(idle)}`);

    const first = await open();
    const build = await sampled(async () => {
      const during = await first.query('register handler undefined');
      await first.index.refresh();
      return during;
    });
    row(
      'build: words (BM25)',
      `query during it ${build.value.ms.toFixed(0)} ms (${build.value.state}); peak RSS ${mb(build.peak)}; steady ${mb(await steadyRss())}`,
    );
    const vectors = await sampled(async () => {
      const started = performance.now();
      const during = await first.query('register handler undefined');
      await first.index.embedPending(made.value, () => true);
      return { during, ms: performance.now() - started };
    });
    row(
      'build: vectors',
      `${passages} passages in ${(vectors.value.ms / 1000).toFixed(1)} s; query during it ${vectors.value.during.ms.toFixed(0)} ms (${vectors.value.during.state}); peak RSS ${mb(vectors.peak)}`,
    );
    const steadyQuery = await first.query('register handler undefined');
    row('steady (built)', `query ${steadyQuery.ms.toFixed(0)} ms (${steadyQuery.state}); RSS ${mb(await steadyRss())}`);
    await first.services.dispose();

    const restarted = await open();
    const reopened = await sampled(async () => {
      const firstQuery = await restarted.query('register handler undefined');
      await restarted.index.refresh();
      await restarted.index.embedPending(made.value, () => true);
      return firstQuery;
    });
    const again = await restarted.query('register handler undefined');
    row(
      'restart',
      `first query ${reopened.value.ms.toFixed(0)} ms (${reopened.value.state}); then ${again.ms.toFixed(0)} ms; peak RSS ${mb(reopened.peak)}; steady ${mb(await steadyRss())}`,
    );
    const snapshot = process.env['BENCH_HEAP_SNAPSHOT'];
    if (snapshot !== undefined) writeHeapSnapshot(snapshot);
    await restarted.services.dispose();
    for (const line of rows) log(line);
  } finally {
    await embeddings.close();
    await rm(home, { recursive: true, force: true });
  }
}

await main();
