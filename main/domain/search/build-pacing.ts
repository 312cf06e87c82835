import { setTimeout as sleep } from 'node:timers/promises';
import type { ForegroundGate } from '../../platform/search-engines/foreground-gate';

/**
 * When the index's build steps aside (issue 32, item 1): between two batches of a scan, and between
 * two slices of a big file's counting, it waits while the index's own queries answer and while other
 * tool calls run (the foreground gate), so their reads and requests do not queue behind it. Apart
 * from the scan because the queries keep these counts and the scan only asks them.
 */
export class BuildPacing {
  /** Queries answering now: the build pauses between batches while there are any. */
  private foreground = 0;
  /** Queries waiting for the build to end (a small workspace's first): it does not pause for their calls. */
  private awaitingBuild = 0;

  constructor(
    /** Aborted by close: nothing is waited for any more. */
    private readonly stop: AbortSignal,
    /** Tool calls running (IndexOptions.foreground); undefined: none are waited for. */
    private readonly gate: ForegroundGate | undefined,
  ) {}

  /** A query waits for the build to end: the build no longer pauses for calls (endAwaitingBuild undoes it). */
  startAwaitingBuild(): void {
    this.awaitingBuild += 1;
  }

  endAwaitingBuild(): void {
    this.awaitingBuild -= 1;
  }

  /** A query answers: the build waits between two batches until it has (endAnswering undoes it). */
  startAnswering(): void {
    this.foreground += 1;
  }

  endAnswering(): void {
    this.foreground -= 1;
  }

  /**
   * Between two slices of a file's counting (a big file's takes hundreds of ms): as between two
   * batches, when a query answers or a call runs; nothing to wait for otherwise (no await per slice).
   */
  slicePause(): Promise<void> | undefined {
    const callsRun = this.awaitingBuild === 0 && this.gate?.busy === true;
    return this.foreground > 0 || callsRun ? this.pauseForCalls() : undefined;
  }

  /**
   * Between two batches of a scan: waits while this index's queries answer, and while other tool
   * calls run (the foreground gate) unless a query waits for this very build to end.
   */
  async pauseForCalls(): Promise<void> {
    const aborted = () => this.stop.aborted;
    while (this.foreground > 0 && !aborted()) await sleep(5);
    // A query waiting for this build: no pause (and no waiter left at the gate for it).
    if (this.awaitingBuild > 0) return;
    for (let held = this.gate?.idle(this.stop); held !== undefined;) {
      const opened = held.then(() => true);
      // Looked at again every 20 ms: a query may come to wait for the build meanwhile.
      let open = false;
      while (!open && this.awaitingBuild === 0 && !aborted()) {
        open = await Promise.race([opened, sleep(20).then(() => false)]);
      }
      if (!open) return;
      held = this.gate?.idle(this.stop); // shut again at once by the next call?
    }
  }
}
