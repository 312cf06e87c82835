/** The background tasks that wait for a delay, each at most once (enqueueLater). */
export type DelayedTask = 'save' | 'refresh' | 'catch-up';

/**
 * The index's background work, one task at a time (a load, a build, a refresh, a catch-up, a save
 * never overlap), and the tasks waiting for their delay: asked for again meanwhile, they still run
 * once.
 */
export class NgramTaskQueue {
  /** The last task enqueued: settles when every task before it is over. */
  private last: Promise<unknown> = Promise.resolve();
  /** A save and a refresh waiting for their delay (enqueueLater). */
  private readonly timers = new Map<DelayedTask, NodeJS.Timeout>();
  /** Delayed tasks no longer taken (refuse): the service is closing. */
  private readonly refused = new Set<DelayedTask>();

  /** `onFailed`: a task threw (the queue goes on with the next one). */
  constructor(private readonly onFailed: (error: unknown) => void) {}

  /** Settles when the tasks enqueued so far are over (one enqueued meanwhile is not waited for). */
  get tail(): Promise<unknown> {
    return this.last;
  }

  /** Runs `task` after the tasks before it; answers when it is over (failed or not). */
  enqueue(task: () => Promise<void>): Promise<void> {
    this.last = this.last.then(task).catch(this.onFailed);
    return this.last as Promise<void>;
  }

  /** Runs `task` on the queue after `delayMs`, once however often it is asked for meanwhile. */
  enqueueLater(key: DelayedTask, delayMs: number, task: () => Promise<void>): void {
    if (this.timers.has(key) || this.refused.has(key)) return;
    const timer = setTimeout(() => {
      this.timers.delete(key);
      void this.enqueue(task);
    }, delayMs);
    timer.unref?.();
    this.timers.set(key, timer);
  }

  /**
   * Drops the tasks waiting under `keys` and takes none of them again: a task still running when
   * the service closes (a refresh ending its round) would otherwise set a timer that starts another
   * after the close.
   */
  refuse(keys: readonly DelayedTask[]): void {
    for (const key of keys) {
      this.cancel(key);
      this.refused.add(key);
    }
  }

  /** Drops the task waiting under `key`; true when one was waiting. */
  cancel(key: DelayedTask): boolean {
    const timer = this.timers.get(key);
    clearTimeout(timer);
    this.timers.delete(key);
    return timer !== undefined;
  }
}
