/**
 * Counts file-watcher events in one-second windows. More than `limit` in one window is a storm (a
 * checkout, a build, a process swapping folders in a loop): a watcher's picture of the tree can no
 * longer be trusted, and following each event would spend the app's time on it. The tree watcher
 * and the semantic index's change watch both judge their events by it.
 */
export class EventStorm {
  #windowStart = 0;
  #events = 0;

  constructor(private readonly limit = 1000) {}

  /** Counts one event; true for the event that takes its window over the limit (once per window). */
  begins(now = Date.now()): boolean {
    if (now - this.#windowStart > 1000) {
      this.#windowStart = now;
      this.#events = 0;
    }
    this.#events += 1;
    return this.#events === this.limit + 1;
  }
}
