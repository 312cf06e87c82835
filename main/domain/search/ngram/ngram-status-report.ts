import type { NgramIndex } from './ngram-index';
import type { NgramState, NgramStatus } from './ngram-status';

type Listener = (status: NgramStatus) => void;

/**
 * What an index's status says besides its state and the index's own counts (the service keeps
 * these figures up to date), and the listeners that hear of every change.
 */
export class NgramStatusReport {
  /** Files the build's walk found so far. */
  walked = 0;
  /** Size of the saved file, once loaded or saved. */
  diskBytes: number | undefined;
  buildMs: number | undefined;
  /** Why the last background task failed (a build that succeeds clears it). */
  error: string | undefined;
  private readonly listeners = new Set<Listener>();

  /** `index`: the ready index, or the one being built. */
  status(state: NgramState, index: NgramIndex | undefined): NgramStatus {
    return {
      state,
      files: index?.files ?? 0,
      walked: this.walked,
      textBytes: index?.textBytes ?? 0,
      memoryBytes: index?.memoryBytes ?? 0,
      ...(this.diskBytes === undefined ? {} : { diskBytes: this.diskBytes }),
      ...(this.buildMs === undefined ? {} : { buildMs: this.buildMs }),
      ...(this.error === undefined ? {} : { error: this.error }),
    };
  }

  /** Returns the unsubscribe. */
  listen(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  tell(status: NgramStatus): void {
    for (const listener of this.listeners) listener(status);
  }
}
