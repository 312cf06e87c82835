import { cpus } from 'node:os';
import { Worker } from 'node:worker_threads';
import { fsWorkerJobs } from './fs-worker-jobs';
import { workerTextTools } from './fs-worker-text';
import type { AnchoredFiles, SearchJob, SearchJobResult, StatRows } from './search-types';

/**
 * Worker threads for the heavy file work (searching thousands of files, statting big listings).
 * Two reasons: the main process stays free for IPC while a search runs, and a search uses every
 * core like ripgrep does. A stuck regex (catastrophic backtracking) is ended by terminating its
 * worker when the call's signal aborts.
 */
export interface FsWorkerPool {
  statEntries(files: AnchoredFiles, signal?: AbortSignal): Promise<StatRows>;
  searchFiles(job: SearchJob, signal?: AbortSignal): Promise<SearchJobResult>;
  /** Threads in the pool (for sizing batches). */
  readonly size: number;
  dispose(): Promise<void>;
}

export interface FsWorkerPoolOptions {
  /** Default: the number of CPUs, at most 4. */
  readonly size?: number;
  /** Idle workers exit after this long (they cost ~10 MB each). */
  readonly idleMs?: number;
}

// The worker runs the same function as tests do in-process, shipped as source text: no separate
// bundle entry, and the same code under vitest, electron-vite and the bench build. `__name` covers
// bundlers that wrap functions with a naming helper.
const workerSource = `'use strict';
var __name = (f) => f;
const { parentPort } = require('node:worker_threads');
const jobs = (${fsWorkerJobs.toString()})(require('node:fs'), (${workerTextTools.toString()})(), {});
parentPort.on('message', ({ id, kind, payload }) => {
  try {
    parentPort.postMessage({ id, ok: true, value: kind === 'stat' ? jobs.statEntries(payload) : jobs.searchFiles(payload) });
  } catch (error) {
    parentPort.postMessage({ id, ok: false, message: String(error && error.stack || error) });
  }
});`;

interface Task {
  readonly id: number;
  readonly kind: 'stat' | 'search';
  readonly payload: unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly signal: AbortSignal | undefined;
}

interface Slot {
  worker: Worker;
  readonly running: Map<number, Task>;
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

/** Tasks queued per worker: two keeps a worker busy while the next reply travels. */
const depth = 2;

export function createFsWorkerPool(options: FsWorkerPoolOptions = {}): FsWorkerPool {
  const size = Math.max(1, options.size ?? Math.min(4, cpus().length));
  const idleMs = options.idleMs ?? 30_000;
  const slots: Slot[] = [];
  const queue: Task[] = [];
  let nextId = 1;
  let idleTimer: NodeJS.Timeout | undefined;
  let disposed = false;

  const spawn = (): Slot => {
    const worker = new Worker(workerSource, { eval: true, name: 'familiar-fs' });
    const slot: Slot = { worker, running: new Map() };
    worker.on('message', (reply: Reply) => {
      const task = slot.running.get(reply.id);
      if (task === undefined) return;
      slot.running.delete(reply.id);
      if (reply.ok) task.resolve(reply.value);
      else task.reject(new Error(`file worker failed: ${reply.message}`));
      pump();
    });
    worker.on('error', (error) => retire(slot, error));
    worker.on('exit', () => retire(slot, new Error('file worker exited')));
    worker.unref();
    return slot;
  };

  // A dead or terminated worker leaves the pool; its tasks that were not aborted go back to the
  // queue (another call's search must not fail because this one was stopped).
  const retire = (slot: Slot, error: Error) => {
    const at = slots.indexOf(slot);
    if (at !== -1) slots.splice(at, 1);
    const survivors: Task[] = [];
    for (const task of slot.running.values()) {
      if (task.signal?.aborted === true) task.reject(abortError());
      else if (disposed) task.reject(error);
      else survivors.push(task);
    }
    slot.running.clear();
    queue.unshift(...survivors);
    pump();
  };

  const abortError = () => Object.assign(new Error('aborted'), { name: 'AbortError' });

  const pump = () => {
    while (queue.length > 0 && !disposed) {
      let slot =
        slots.find((s) => s.running.size === 0) ??
        (slots.length < size ? undefined : slots.find((s) => s.running.size < depth));
      if (slot === undefined && slots.length < size) {
        slot = spawn();
        slots.push(slot);
      }
      if (slot === undefined) break;
      const task = queue.shift()!;
      slot.running.set(task.id, task);
      // Ref'd while busy so a script awaiting a search is not ended by an idle event loop.
      slot.worker.ref();
      slot.worker.postMessage({ id: task.id, kind: task.kind, payload: task.payload });
    }
    for (const slot of slots) if (slot.running.size === 0) slot.worker.unref();
    clearTimeout(idleTimer);
    if (slots.length > 0 && slots.every((s) => s.running.size === 0)) {
      idleTimer = setTimeout(() => void Promise.all(slots.splice(0).map((s) => s.worker.terminate())), idleMs);
      idleTimer.unref();
    }
  };

  // One abort listener per signal, however many tasks a call submits (a search submits hundreds).
  const watched = new WeakMap<AbortSignal, Set<Task>>();
  const onAbort = (signal: AbortSignal) => {
    const tasks = watched.get(signal);
    watched.delete(signal);
    for (const task of tasks ?? []) {
      const queued = queue.indexOf(task);
      if (queued !== -1) {
        queue.splice(queued, 1);
        task.reject(abortError());
        continue;
      }
      const slot = slots.find((s) => s.running.has(task.id));
      if (slot !== undefined) void slot.worker.terminate();
    }
  };
  const watch = (signal: AbortSignal, task: Task) => {
    let tasks = watched.get(signal);
    if (tasks === undefined) {
      tasks = new Set();
      watched.set(signal, tasks);
      signal.addEventListener('abort', () => onAbort(signal), { once: true });
    }
    tasks.add(task);
  };
  const unwatch = (signal: AbortSignal | undefined, task: Task) => {
    if (signal === undefined) return;
    watched.get(signal)?.delete(task);
  };

  const submit = <T>(kind: Task['kind'], payload: unknown, signal: AbortSignal | undefined) =>
    new Promise<T>((resolve, reject) => {
      if (disposed) return reject(new Error('the file worker pool is closed'));
      if (signal?.aborted === true) return reject(abortError());
      const task: Task = {
        id: nextId++,
        kind,
        payload,
        signal,
        resolve: (value) => {
          unwatch(signal, task);
          resolve(value as T);
        },
        reject: (error) => {
          unwatch(signal, task);
          reject(error);
        },
      };
      if (signal !== undefined) watch(signal, task);
      queue.push(task);
      pump();
    });

  return {
    size,
    statEntries: (files, signal) => submit<StatRows>('stat', files, signal),
    searchFiles: (job, signal) => submit<SearchJobResult>('search', job, signal),
    async dispose() {
      disposed = true;
      clearTimeout(idleTimer);
      for (const task of queue.splice(0)) task.reject(new Error('the file worker pool is closed'));
      await Promise.all(slots.splice(0).map((slot) => slot.worker.terminate()));
    },
  };
}
