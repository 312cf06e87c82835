import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  HeapRelease,
  WORKER_YOUNG_GENERATION_MB,
  collectGarbage,
  collectOrdinary,
  keepHeapNearLive,
  startHeapFlags,
} from './heap-release';

afterEach(() => {
  vi.useRealTimers();
});

describe('HeapRelease', () => {
  it('collects once, after the quiet time that follows the last build, never while a call runs', () => {
    vi.useFakeTimers();
    let busy = false;
    const collect = vi.fn();
    const release = new HeapRelease(() => busy, { quietMs: 3000, collect });
    release.afterBuild();
    vi.advanceTimersByTime(2000);
    release.afterBuild(); // a second build ended: the quiet time starts again
    vi.advanceTimersByTime(2500);
    expect(collect).not.toHaveBeenCalled();
    busy = true;
    vi.advanceTimersByTime(600);
    expect(collect).not.toHaveBeenCalled(); // a call runs: wait for another quiet time
    busy = false;
    vi.advanceTimersByTime(3000);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it('waits for every running build to end, whichever ended first', () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    const release = new HeapRelease(() => false, { quietMs: 250, collect });
    release.building('trigram /w', true);
    release.building('semantic /w', true);
    release.building('trigram /w', false);
    release.afterBuild(); // the trigram build ended; the semantic one goes on
    vi.advanceTimersByTime(5000);
    expect(collect).not.toHaveBeenCalled();
    release.building('semantic /w', false);
    vi.advanceTimersByTime(250);
    expect(collect).toHaveBeenCalledTimes(1);
    release.building('semantic /w', false); // an end heard twice changes nothing
    release.afterBuild();
    vi.advanceTimersByTime(250);
    expect(collect).toHaveBeenCalledTimes(2);
  });

  it('a disposed release collects nothing', () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    const release = new HeapRelease(() => false, { quietMs: 3000, collect });
    release.afterBuild();
    release.dispose();
    vi.advanceTimersByTime(10_000);
    expect(collect).not.toHaveBeenCalled();
  });

  it('after the start: one ordinary collection at the first quiet moment once the start is over', () => {
    vi.useFakeTimers();
    let busy = false;
    const collect = vi.fn();
    const collectStarted = vi.fn();
    const release = new HeapRelease(() => busy, { quietMs: 250, collect, settleMs: 1500, collectStarted });
    release.afterStart();
    vi.advanceTimersByTime(1400);
    expect(collectStarted).not.toHaveBeenCalled();
    busy = true; // the first call runs as the start ends: the collection waits for it
    vi.advanceTimersByTime(1000);
    expect(collectStarted).not.toHaveBeenCalled();
    busy = false;
    vi.advanceTimersByTime(250);
    expect(collectStarted).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    expect(collectStarted).toHaveBeenCalledTimes(1);
    expect(collect).not.toHaveBeenCalled(); // not the memory-reducing one
  });

  it('after the start: nothing while a build runs, nor once a build was collected after', () => {
    vi.useFakeTimers();
    const collectStarted = vi.fn();
    const building = new HeapRelease(() => false, { collect: vi.fn(), settleMs: 1500, collectStarted });
    building.afterStart();
    building.building('trigram /w', true);
    vi.advanceTimersByTime(1500);
    building.building('trigram /w', false);
    vi.advanceTimersByTime(60_000);
    expect(collectStarted).not.toHaveBeenCalled();
    building.dispose();

    const collect = vi.fn();
    const built = new HeapRelease(() => false, { quietMs: 250, collect, settleMs: 1500, collectStarted });
    built.afterStart();
    built.afterBuild(); // a first search's build ended quickly: its collection comes first
    vi.advanceTimersByTime(60_000);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(collectStarted).not.toHaveBeenCalled();

    const late = vi.fn();
    const ending = new HeapRelease(() => false, { quietMs: 250, collect: late, settleMs: 1500, collectStarted });
    ending.afterStart();
    vi.advanceTimersByTime(1400);
    ending.afterBuild(); // a build ends just before the start is over: its collection is due at 1,650 ms
    vi.advanceTimersByTime(60_000);
    expect(late).toHaveBeenCalledTimes(1);
    expect(collectStarted).not.toHaveBeenCalled();

    const disposed = new HeapRelease(() => false, { collect: vi.fn(), settleMs: 1500, collectStarted });
    disposed.afterStart();
    disposed.dispose();
    vi.advanceTimersByTime(60_000);
    expect(collectStarted).not.toHaveBeenCalled();
  });

  it.each([
    ['collectGarbage', collectGarbage],
    ['collectOrdinary', collectOrdinary],
  ])('%s runs a full collection in a process started without --expose-gc', async (_name, collectNow) => {
    expect(process.execArgv).not.toContain('--expose-gc');
    // An object only a weak reference holds is gone after a full collection.
    const weak = new WeakRef({ payload: new Array(1000).fill('x') });
    await new Promise((resolve) => setImmediate(resolve)); // WeakRef targets live until the turn ends
    collectNow();
    expect(weak.deref()).toBeUndefined();
  });

  it('startHeapFlags sizes the young generation from the start, unless the person who started the process sized the heap', () => {
    const sized = ['--min-semi-space-size=8'];
    expect(startHeapFlags([])).toEqual(sized);
    expect(startHeapFlags(['--inspect', '--max-old-space-size=4096', '--stack-size=2000', ''])).toEqual(sized);
    expect(startHeapFlags(['--max-semi-space-size=4'])).toEqual([]);
    expect(startHeapFlags(['-min-semi-space-size=4'])).toEqual([]); // Node takes one dash too
    expect(startHeapFlags(['--max-heap-size=4096'])).toEqual([]);
    expect(startHeapFlags(['--initial_heap_size=64'])).toEqual([]);
    // NODE_OPTIONS, several flags in one string, V8's spelling
    expect(startHeapFlags(['', '--max-old-space-size=4096 --max_semi_space_size=2'])).toEqual([]);
  });

  it('keepHeapNearLive keeps the young generation where it is, and the old one near what was live while any build runs', () => {
    const flags: string[] = [];
    keepHeapNearLive((set) => flags.push(set));
    expect(flags).toEqual(['--semi-space-growth-factor=1']);
    const one = new HeapRelease(() => false, { quietMs: 250, collect: vi.fn() });
    const other = new HeapRelease(() => false, { quietMs: 250, collect: vi.fn() });
    const held = () => flags.slice(1);
    one.building('trigram /w', true);
    expect(held()).toEqual(['--heap-growing-percent=20']);
    other.building('semantic /v', true);
    one.building('trigram /w', true); // a start heard twice
    one.building('trigram /w', false);
    expect(held()).toEqual(['--heap-growing-percent=20']); // the other build still runs
    other.dispose(); // a disposed release's builds are over
    expect(held()).toEqual(['--heap-growing-percent=20', '--heap-growing-percent=0']);
    one.building('trigram /w', false); // an end heard twice
    one.building('trigram /x', true);
    expect(held()).toEqual(['--heap-growing-percent=20', '--heap-growing-percent=0', '--heap-growing-percent=20']);
    one.dispose();
    expect(held()).toHaveLength(4);
  });

  it('the flags it sets at run time keep a young generation from growing (a child process, each way)', () => {
    // Short-lived objects allocated fast: V8 grows the young generation (to 32-64 MB) unless told not to.
    const youngest = (flags: string[]) =>
      Number(
        execFileSync(process.execPath, [
          '-e',
          `const v8 = require('node:v8');
          for (const flag of ${JSON.stringify(flags)}) v8.setFlagsFromString(flag);
          let held = []; let most = 0;
          for (let n = 0; n < 3e6; n += 1) {
            held.push({ n, s: 'x' + n });
            if (held.length > 20000) held = [];
            if (n % 10000 === 0) most = Math.max(most, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);
          }
          console.log(most);`,
        ]).toString(),
      );
    const flags: string[] = [];
    keepHeapNearLive((set) => flags.push(set));
    const grown = youngest([]);
    const kept = youngest(flags);
    // Held: 2-3 MB as a rule, once 8.6 MB on a busy machine; grown: 32-64 MB.
    expect(kept).toBeLessThan(16 * 1024 * 1024);
    expect(grown).toBeGreaterThan(2 * kept);
  });

  it("the start's flags size the main thread's young generation, and a worker thread's limit keeps its own small (a child process)", () => {
    const sizes = (flags: string[]) =>
      JSON.parse(
        execFileSync(process.execPath, [
          ...flags,
          '-e',
          `const { Worker } = require('node:worker_threads');
          const newSpace = 'require("node:v8").getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size';
          const main = eval(newSpace);
          const worker = new Worker('require("node:worker_threads").parentPort.postMessage(' + newSpace + ')', {
            eval: true,
            resourceLimits: { maxYoungGenerationSizeMb: ${WORKER_YOUNG_GENERATION_MB} },
          });
          worker.once('message', (thread) => { console.log(JSON.stringify({ main, thread })); worker.terminate(); });`,
        ]).toString(),
      ) as { main: number; thread: number };
    const MB = 1024 * 1024;
    const started = sizes(startHeapFlags([]));
    const own = sizes([]);
    // 8 MB where V8 allows it (it caps a semi-space by the machine's memory: 4 MB under ~2 GB).
    expect(started.main).toBeGreaterThanOrEqual(4 * MB);
    expect(started.main).toBeLessThanOrEqual(8 * MB);
    expect(own.main).toBeLessThanOrEqual(MB); // V8's own start, for comparison
    expect(started.thread).toBeLessThanOrEqual(2 * MB);
  });
});
