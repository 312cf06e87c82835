import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { WORKER_YOUNG_GENERATION_MB } from '../heap/heap-release';
import type { CountCheckJob, CountChecks } from './count-checks';
import type { FsTask } from './fs-worker';
import type { NgramSegment } from './ngram-types';
import type { AnchoredFiles } from '../disk/anchored-batch';
import type { SearchJob, SearchJobResult, StatRows } from './search-types';

/**
 * Worker threads for the heavy file work (searching thousands of files, statting big listings).
 * Two reasons: the main process stays free for IPC while a search runs, and a search uses every
 * core like ripgrep does. A stuck regex (catastrophic backtracking) is ended by terminating its
 * worker when the call's signal aborts (piscina does that for an aborted running task).
 */
export interface FsWorkerPool {
  statEntries(files: AnchoredFiles, signal?: AbortSignal): Promise<StatRows>;
  searchFiles(job: SearchJob, signal?: AbortSignal): Promise<SearchJobResult>;
  /** Do ripgrep's counts of these files stand (count-checks.ts)? */
  checkCounts(job: CountCheckJob, signal?: AbortSignal): Promise<CountChecks>;
  /** The trigrams of a batch of files, for the search index (ngram-extract.ts): in low-priority threads. */
  indexFiles(files: AnchoredFiles, racyMs: number, signal?: AbortSignal): Promise<NgramSegment>;
  /**
   * Starts the search threads now if they are not running yet (a search about to need them: their
   * start then overlaps ripgrep's walk instead of adding to the answer's time).
   */
  warm(): void;
  /** Threads in the pool (for sizing batches). */
  readonly size: number;
  /**
   * Nonzero while a tool call runs: the tool call gate sets it (ForegroundGate's `shared`), and an
   * index thread waits between two files until it is 0 again, so a job under way pauses with the
   * rest of the build (issue 32 item 1). The pool's own, so a pool made before the gate has it.
   */
  readonly hold: Int32Array;
  /** Search threads running or starting now (index threads aside). */
  searchThreads(): number;
  /** Resolves once every thread has ended, also those ended earlier for an aborted task. */
  dispose(): Promise<void>;
}

export interface FsWorkerPoolOptions {
  /** Default: the number of CPUs, at most 4. */
  readonly size?: number;
  /** Idle workers beyond the first exit after this long (they cost ~10 MB each). */
  readonly idleMs?: number;
  /** Idle index threads exit after this long (each holds what its last jobs grew its heap to). */
  readonly backgroundIdleMs?: number;
}

/**
 * An index thread's heap grows with the files it read (tens of MB each after a build of 62k files):
 * once the build is over they go soon, and a catch-up after an edit starts one again (tens of ms,
 * in the background). Long enough to outlast a build's pause while a tool call runs.
 */
const BACKGROUND_IDLE_MS = 2000;

/**
 * The worker module, a real file: electron-vite builds main/platform/search-engines/fs-worker.ts as
 * out/main/fs-worker.js and the bench as out/bench/fs-worker.mjs, beside the entry that bundles this
 * code (or one folder up, from a shared chunk). Under vitest nothing is built: fs-worker-source.mjs
 * compiles the TypeScript source with jiti (a devDependency) inside the worker. No code is ever
 * shipped as text to be evaluated.
 */
export function fsWorkerFile(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const dir of [here, dirname(here)]) {
    for (const name of ['fs-worker.js', 'fs-worker.mjs']) {
      const path = join(dir, name);
      if (existsSync(path)) return path;
    }
  }
  const source = join(here, 'fs-worker-source.mjs');
  if (existsSync(source)) return source;
  throw new Error(`the file worker (fs-worker.js) is missing beside ${here}`);
}

/**
 * A thread's young generation stays small: familiar-mcp starts its main thread's larger, and a V8
 * flag would give each thread the same (heap-release.ts).
 */
const resourceLimits = { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB };

export function createFsWorkerPool(options: FsWorkerPoolOptions = {}): FsWorkerPool {
  const size = Math.max(1, options.size ?? Math.min(4, cpus().length));
  const hold = new Int32Array(new SharedArrayBuffer(4));
  let pool: Piscina<FsTask, unknown> | undefined;
  let background: Piscina<FsTask, unknown> | undefined;
  let disposed = false;
  let presized = false;
  // Threads start on the first task, or warm() (the app's core warms them as it starts).
  const started = () =>
    (pool ??= new Piscina<FsTask, unknown>({
      filename: fsWorkerFile(),
      name: 'runFsTask', // the worker module's export (fs-worker.ts)
      // One thread stays once started. With none, piscina 5.3 strands the queue after it terminates
      // the only worker for an aborted running task: queued tasks wait for a new task to start a
      // thread, which may never come (the runaway-regex test below shows it).
      minThreads: 1,
      maxThreads: size,
      idleTimeout: options.idleMs ?? 30_000,
      // A task is synchronous work: a second one queued on a busy thread would only wait there.
      concurrentTasksPerWorker: 1,
      resourceLimits,
    }));

  // Index builds run in their own threads, which lower their priority (fs-worker.ts): a build
  // takes a whole core per thread for many seconds, and must not slow the searches and listings
  // the person (or agent) is waiting for meanwhile. On an idle machine it still gets every core.
  const startedBackground = () =>
    (background ??= new Piscina<FsTask, unknown>({
      filename: fsWorkerFile(),
      name: 'runFsTask',
      // A SharedArrayBuffer in workerData is shared with each thread, not copied.
      workerData: { background: true, hold },
      // Index jobs are aborted only when the app closes, so piscina's stranded-queue case (above)
      // cannot happen here; no thread stays once the build is over.
      minThreads: 0,
      maxThreads: size,
      idleTimeout: options.backgroundIdleMs ?? BACKGROUND_IDLE_MS,
      concurrentTasksPerWorker: 1,
      resourceLimits,
    }));

  // piscina's destroy waits only for the threads it still holds: one it terminated for an aborted
  // task (every index thread, when a build is stopped) may still be ending, and at its lowest
  // priority on a busy machine that takes seconds. The process cannot exit before it has.
  const ending = new Map<Worker, Promise<void>>();
  const tracked = new WeakSet<Piscina<FsTask, unknown>>();
  const track = (threads: Piscina<FsTask, unknown>) => {
    if (tracked.has(threads)) return threads;
    tracked.add(threads);
    threads.on('workerCreate', () => {
      for (const thread of threads.threads) {
        if (ending.has(thread) || thread.threadId === -1) continue; // -1: not running any more
        const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
        ending.set(thread, exited);
        void exited.then(() => ending.delete(thread));
      }
    });
    return threads;
  };

  const submit = async <T>(task: FsTask, signal: AbortSignal | undefined, threads = started): Promise<T> => {
    if (disposed) throw new Error('the file worker pool is closed');
    if (signal?.aborted === true) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    return (await track(threads()).run(task, signal === undefined ? {} : { signal })) as T;
  };

  return {
    size,
    hold,
    searchThreads: () => pool?.threads.length ?? 0,
    statEntries: (files, signal) => submit<StatRows>({ kind: 'stat', files }, signal),
    searchFiles: (job, signal) => submit<SearchJobResult>({ kind: 'search', job }, signal),
    checkCounts: (job, signal) => submit<CountChecks>({ kind: 'check', job }, signal),
    warm() {
      if (disposed) return;
      let threads: Piscina<FsTask, unknown>;
      try {
        threads = track(started());
      } catch {
        return; // no worker file (a program bundled without it): the first task that needs a thread says so
      }
      // Every thread, not only the one piscina keeps: a search shares its files out among them, and
      // its second share would otherwise wait for the first thread, or a second one's start then.
      // One task per thread: a single one waits for the first thread rather than start another.
      if (threads.threads.length < size) {
        for (let i = 0; i < size; i += 1) {
          // One thread, once per pool, grows the descriptor table a first search would grow, stalled.
          const task: FsTask = { kind: 'start', presize: !presized };
          presized = true;
          threads.run(task).catch(() => undefined);
        }
      }
    },
    indexFiles: (files, racyMs, signal) =>
      submit<NgramSegment>({ kind: 'ngrams', files, racyMs }, signal, startedBackground),
    async dispose() {
      disposed = true;
      await Promise.all([pool?.destroy(), background?.destroy()]);
      await Promise.all(ending.values());
    },
  };
}
