import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * How long after a build's end, with no call running and no other build, the heap is collected. Short:
 * a client that waits for a build to finish and then looks at the server's memory (issue 32's
 * benchmark) saw 428 MB for the 3 s this once was, 262 MB once collected (81.6k-file tree). The
 * collection itself took 170-190 ms there.
 */
const QUIET_MS = 250;

/**
 * How long after the app's services are made its start is taken to be over. A fresh familiar-mcp's
 * heap grew from 35 to 43 MB in the 0.2 s after its core was made (the handshake, the first scans);
 * 1.5 s leaves room for a slower machine's start.
 */
const START_SETTLE_MS = 1500;

let gc: ((options?: object) => void) | undefined;

/**
 * gc() in a process started without --expose-gc, which neither `node mcp.js` (as an MCP client starts
 * it) nor Electron's main process is: the flag is set at run time and gc() is taken from a fresh
 * context, where V8 installs it.
 */
function gcFunction(): (options?: object) => void {
  gc ??= (() => {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as (options?: object) => void;
  })();
  return gc;
}

/**
 * A full, memory-reducing garbage collection: V8's 'last-resort' flavour (compacts, then unmaps the
 * empty pages). 50-75 ms on a fresh server's 40 MB heap, 170-190 ms after a build on a large tree.
 */
export function collectGarbage(): void {
  gcFunction()({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

/**
 * An ordinary full collection (not memory-reducing), in one pause: 37-39 ms on a fresh server's 43 MB
 * heap, where V8's own, marked concurrently as the app runs, stops it for ~11 ms.
 */
export function collectOrdinary(): void {
  gcFunction()({ type: 'major', execution: 'sync' });
}

/**
 * How far V8 lets the old generation grow past what was live after a full collection, in percent,
 * while an index builds. Left to itself it grows by a factor it picks from the allocation rate, up to
 * 4: an index build allocates fast, so a build whose live heap is 110-140 MB grew the heap to 300-390
 * MB (62k-file tree, familiar-mcp). Held to 1.2, the peak RSS of that build went from 694-741 to
 * 605-651 MB, and the build took about 15% longer (more, shorter collections), in the background.
 *
 * Only while a build runs: held all the time, every 5 MB buffer a call reads or writes pushed the
 * heap past its limit, and each edit_file of a 5 MB file paid a full collection of the app's heap
 * (median 52 ms over MCP, against 29 ms with V8's own factor). 0 is V8's own.
 */
const HEAP_GROWING_PERCENT = 20;

/**
 * How much the young generation's semi-spaces grow at a time: 1, not at all. V8 sizes its young
 * generation by the machine's memory (two semi-spaces of up to 64 MB each on this 24 GB machine:
 * `heapTotal` 182 MB with 39 MB used after a few searches), and the flags that bound it are read only
 * when the process starts (familiar-mcp and browser mode give them at their relaunch, startHeapFlags
 * below; Electron's main process cannot). Not growing it from the start (flags set by a preload,
 * before any module), the 62k-file build over MCP peaked at 523-528 MB instead of 590-643, its
 * trigram part at 368-374 instead of 406-413, and the semantic build took 10-20% longer (more,
 * smaller scavenges). Set as the app sets it (below), the same build peaked at 495 MB in one trace
 * and 573 MB in the memory bench.
 */
const SEMI_SPACE_GROWTH_FACTOR = 1;

/**
 * The main thread's young generation (its semi-space, in MB) from the process's start
 * (startHeapFlags). V8 starts it at 1 MB, and held there (above) the first search in a new
 * familiar-mcp ran 8-10 scavenges of 1-4 ms (10-15 ms in all, 30k files) and the walk that confirms
 * ripgrep's candidates took 46-54 ms instead of 32-41: it allocates ~10 MB, and what is live at each
 * scavenge is copied. At 8 MB that search ran one scavenge in one run of six, none in the others; at
 * 16 MB none, but the server's steady RSS rose by 22-34 MB in most states of the memory bench (62k
 * files, one run each), where 8 MB added 0-18.
 */
const START_SEMI_SPACE_MB = 8;

/**
 * V8 flags for a process to be started with (malloc-tunables.ts gives them at the relaunch, so only
 * where that relaunch happens: Linux with glibc, Node 22.15 or later, no allocator settings of the
 * person's own): the main thread's young generation (START_SEMI_SPACE_MB). A flag is the process's,
 * so the worker threads are held to theirs (WORKER_YOUNG_GENERATION_MB). None when the person who
 * started it sized the heap (`given`: the process's execArgv and NODE_OPTIONS): their semi-space or
 * heap size stands as they gave it (a heap size would also reach every worker past its limit), and
 * the young generation still does not grow (keepHeapNearLive).
 */
export function startHeapFlags(
  given: readonly string[] = [...process.execArgv, process.env['NODE_OPTIONS'] ?? ''],
): string[] {
  if (given.some((flags) => heapSizeFlag.test(flags))) return [];
  return [`--min-semi-space-size=${START_SEMI_SPACE_MB}`];
}

/** A flag that sizes the young generation or the heap, as Node and V8 spell it (dashes or underscores). */
const heapSizeFlag = /(?:^|\s)--?(?:(?:min|max)[-_]semi[-_]space[-_]size|(?:max|initial)[-_]heap[-_]size)\b/;

/**
 * A worker thread's young generation, in MB (its `resourceLimits`): V8's smallest, semi-spaces of
 * 1 MB. Without it each thread would take the main thread's too: at 16 MB, with the file and index
 * threads, familiar-mcp's RSS on a 62k-file tree rose from 201 to 296 MB steady, 304 to 458 MB at
 * the peak.
 */
export const WORKER_YOUNG_GENERATION_MB = 3;

/** Set by keepHeapNearLive: how builds hold the old generation (see HEAP_GROWING_PERCENT). */
let holdDuringBuilds: ((flags: string) => void) | undefined;
/** Builds running now, over every HeapRelease of the process (the flag is process-wide). */
let buildsRunning = 0;

function noteBuild(change: 1 | -1): void {
  buildsRunning += change;
  if (holdDuringBuilds === undefined) return;
  if (change === 1 && buildsRunning === 1) holdDuringBuilds(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  if (change === -1 && buildsRunning === 0) holdDuringBuilds('--heap-growing-percent=0');
}

/**
 * Keeps V8's heap near what is live (issue 32 item 7: a companion that sits in the background all
 * day favours memory over the throughput of its background builds): the young generation grows no
 * further, and while an index builds the old one grows little past what is live (HeapRelease says
 * when builds start and end). Process-wide: each entry (the desktop app, browser mode, familiar-mcp)
 * sets it as it starts: familiar-mcp and browser mode before the app's modules load (their entries
 * import only this and malloc-tunables.ts), so the young generation never grows; the desktop app once
 * they have loaded, when it is 32 MB already: it stays there until the first collection after a build
 * (HeapRelease) shrinks it, and does not grow again. Tests and the in-process bench run with V8's
 * defaults, but for the file worker pool's threads, held small everywhere (WORKER_YOUNG_GENERATION_MB).
 */
export function keepHeapNearLive(setFlags: (flags: string) => void = setFlagsFromString): void {
  setFlags(`--semi-space-growth-factor=${SEMI_SPACE_GROWTH_FACTOR}`);
  holdDuringBuilds = setFlags;
  if (buildsRunning > 0) setFlags(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

export interface HeapReleaseOptions {
  /** How long the app must be quiet after a build before its heap is collected (default QUIET_MS). */
  readonly quietMs?: number;
  /** The collection after builds (default collectGarbage: memory-reducing). */
  readonly collect?: () => void;
  /** How long after afterStart() the start is taken to be over (default START_SETTLE_MS). */
  readonly settleMs?: number;
  /** The collection after the start (default collectOrdinary). */
  readonly collectStarted?: () => void;
}

/**
 * Gives memory back after an index build (issue 32 item 7). A build grows V8's heap to hundreds of
 * megabytes of short-lived objects; once they are garbage V8 keeps the pages (for the next build, it
 * assumes) and a companion that idles all day holds them all day. `afterBuild()` asks for one full
 * collection once the app has been quiet for a moment: no tool call running (`busy`), no build running
 * (`building`: the trigram and semantic builds of every workspace say when they start and end), no
 * other build having ended meanwhile. V8 then unmaps the empty pages in the background. Never during a
 * build: on a build's heap that collection stops the main thread for 0.5–1.3 s, and a query would
 * wait for it (one per written segment took a 62k-file build's peak from 785 to 678 MB, not worth it).
 *
 * `afterStart()` collects once after the app's start, for the first call's sake (see there).
 */
export class HeapRelease {
  #timer: NodeJS.Timeout | undefined;
  #startTimer: NodeJS.Timeout | undefined;
  /** A full collection ran (after a build): the one after the start is not needed any more. */
  #collected = false;
  readonly #building = new Set<string>();
  readonly #quietMs: number;
  readonly #collect: () => void;
  readonly #settleMs: number;
  readonly #collectStarted: () => void;

  constructor(
    private readonly busy: () => boolean,
    options: HeapReleaseOptions = {},
  ) {
    this.#quietMs = options.quietMs ?? QUIET_MS;
    this.#collect = options.collect ?? collectGarbage;
    this.#settleMs = options.settleMs ?? START_SETTLE_MS;
    this.#collectStarted = options.collectStarted ?? collectOrdinary;
  }

  /** Whether the build named `key` (an index of one workspace) runs now. */
  building(key: string, running: boolean): void {
    if (running === this.#building.has(key)) return;
    if (running) this.#building.add(key);
    else this.#building.delete(key);
    noteBuild(running ? 1 : -1);
  }

  afterBuild(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.busy() || this.#building.size > 0) this.afterBuild();
      else {
        this.#collected = true;
        this.#collect();
      }
    }, this.#quietMs);
    this.#timer.unref();
  }

  /**
   * The app has started (its services are made): one ordinary full collection at the first quiet
   * moment once the start is over. V8 first collects the old generation when it reaches the limit it
   * starts with, and a fresh server's start leaves its heap just under it (43 MB of about 45): the
   * first call, however long after, crossed it, and paid that collection and its concurrent marking
   * on two cores. The confirming walk of a fresh familiar-mcp's first search (a rare word, 297
   * candidates), called 2.5 s after the start, took 72-93 ms instead of 42-59 (six runs each way).
   * Collected once the start is over, the limit is set from what is live, and the first calls fit
   * under it. A call arriving during the collection waits for it (37-39 ms); not memory-reducing
   * (50-75 ms here), not while a call runs (it waits for a quiet moment), and not at all while a
   * build runs or once one was collected after: the collection after a build does more.
   */
  afterStart(): void {
    clearTimeout(this.#startTimer);
    this.#startTimer = setTimeout(() => this.#collectAfterStart(), this.#settleMs);
    this.#startTimer.unref();
  }

  #collectAfterStart(): void {
    this.#startTimer = undefined;
    // A build's collection done or due (afterBuild's timer): it does more.
    if (this.#collected || this.#timer !== undefined || this.#building.size > 0) return;
    if (this.busy()) {
      this.#startTimer = setTimeout(() => this.#collectAfterStart(), this.#quietMs);
      this.#startTimer.unref();
      return;
    }
    this.#collectStarted();
  }

  dispose(): void {
    clearTimeout(this.#timer);
    clearTimeout(this.#startTimer);
    this.#timer = undefined;
    this.#startTimer = undefined;
    for (const key of [...this.#building]) this.building(key, false);
  }
}
