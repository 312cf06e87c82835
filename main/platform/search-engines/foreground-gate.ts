/**
 * Who goes first (issue 32 item 1): tool calls are foreground, index work (trigram builds, loads,
 * catch-up after changes) is background. A call holds the gate while it runs; background work asks
 * `idle()` between its slices and waits while any call runs, so it never makes a call wait — and a
 * call never waits on the background (nothing here is a lock a call takes after the background).
 */
export class ForegroundGate {
  #active = 0;
  #waiters: (() => void)[] = [];
  readonly #lingerMs: number;
  readonly #lingerCapMs: number;
  /** When the gate last shut after being open (performance.now()). */
  #shutSince = 0;
  /**
   * The gate as other threads see it: 1 while shut (a call runs, or its linger), else 0. An index
   * thread's job waits on it between files (ngram-extract.ts), so a job already under way when a
   * call begins pauses too instead of running to its end (a thousand files, up to a second).
   */
  readonly shared: Int32Array;

  /**
   * `lingerMs`: a call's end opens the gate this much later. What follows a call's run (its result
   * checked, the audit line, the answer sent to an MCP client) runs after the release: a build
   * woken at once ran a slice first and the answer waited for it (50-100 ms on the first search in
   * a new workspace), and a call that follows at once finds the build still paused. `lingerCapMs`:
   * once the gate has been shut that long in a row (calls closer together than the linger), a call's
   * end opens it at once, so background work still gets its step between calls, as without a linger.
   */
  constructor(
    options: {
      readonly lingerMs?: number;
      readonly lingerCapMs?: number;
      /** The flag to set (a worker pool's `hold`, made before the gate); default a new one. */
      readonly shared?: Int32Array;
    } = {},
  ) {
    this.shared = options.shared ?? new Int32Array(new SharedArrayBuffer(4));
    this.#lingerMs = options.lingerMs ?? 0;
    this.#lingerCapMs = options.lingerCapMs ?? Infinity;
  }

  /** True while at least one call runs (or has just ended: the linger). */
  get busy(): boolean {
    return this.#active > 0;
  }

  /** Background steps waiting for the calls to end (tests: the build has reached its pause). */
  get waiting(): number {
    return this.#waiters.length;
  }

  /** A call begins; the answer ends it (once, however often it is called). */
  enter(): () => void {
    if (this.#active === 0) {
      this.#shutSince = performance.now();
      Atomics.store(this.shared, 0, 1);
    }
    this.#active += 1;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const linger = this.#lingerMs > 0 && performance.now() - this.#shutSince < this.#lingerCapMs;
      // Not kept alive by the linger: a process that ends has no background work left to wake.
      if (linger) setTimeout(() => this.#leave(), this.#lingerMs).unref();
      else this.#leave();
    };
  }

  #leave(): void {
    this.#active -= 1;
    if (this.#active > 0) return;
    Atomics.store(this.shared, 0, 0);
    Atomics.notify(this.shared, 0);
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  /**
   * For background work between slices: undefined when no call runs (go on at once, no await),
   * else a promise that settles when none does — or when `signal` aborts (the app closing).
   */
  idle(signal?: AbortSignal): Promise<void> | undefined {
    if (this.#active === 0 || signal?.aborted === true) return undefined;
    return new Promise<void>((resolve) => {
      const wake = () => {
        signal?.removeEventListener('abort', wake);
        resolve();
      };
      signal?.addEventListener('abort', wake, { once: true });
      this.#waiters.push(wake);
    });
  }
}
