import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How long background work must have been over before the heap is collected. */
const QUIET_MS = 3000;

let collect: (() => void) | undefined;

/**
 * A full, memory-reducing garbage collection. Node offers gc() only to a process started with
 * --expose-gc, which neither `node mcp.js` (as an MCP client starts it) nor Electron's main process
 * is: the flag is set at run time and gc() is taken from a fresh context, where V8 installs it.
 */
export function collectGarbage(): void {
  collect ??= (() => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as (options?: object) => void;
    // 'last-resort': V8's memory-reducing collection (compacts, then unmaps the empty pages).
    return () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  })();
  collect();
}

/**
 * Gives memory back after an index build (issue 32 item 7). A build grows V8's heap to hundreds of
 * megabytes of short-lived objects; once they are garbage V8 keeps the pages (for the next build, it
 * assumes) and a companion that idles all day holds them all day. `afterBuild()` asks for one full
 * collection once the app has been quiet for a few seconds: no tool call running (`busy`), no other
 * build having ended meanwhile. V8 then unmaps the empty pages in the background. Never during a
 * build: on a build's heap that collection stops the main thread for 0.5–1.3 s, and a query would
 * wait for it (one per written segment took a 62k-file build's peak from 785 to 678 MB, not worth it).
 */
export class HeapRelease {
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly busy: () => boolean,
    private readonly quietMs = QUIET_MS,
    private readonly collectNow: () => void = collectGarbage,
  ) {}

  afterBuild(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.busy()) this.afterBuild();
      else this.collectNow();
    }, this.quietMs);
    this.#timer.unref();
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
