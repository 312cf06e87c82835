export type ChangeKind = 'add' | 'change' | 'remove';

export interface ChangeBatch {
  readonly added: readonly string[];
  readonly changed: readonly string[];
  readonly removed: readonly string[];
}

export interface ChangeBatcher {
  push(kind: ChangeKind, relPath: string): void;
  /** Delivers whatever is pending now (used on close and by tests). */
  flush(): void;
  dispose(): void;
}

interface PathHistory {
  /** Did the path exist before the first event of this batch? The first event tells. */
  readonly existedBefore: boolean;
  existsNow: boolean;
}

/**
 * Collects watcher events for `delayMs` after the first one and delivers them as one batch, each path
 * reduced to its net effect: created then deleted is nothing, deleted then re-created is a change.
 * A stream of events still flushes every `delayMs`, so the tree lags by at most that.
 */
export function createChangeBatcher(delayMs: number, deliver: (batch: ChangeBatch) => void): ChangeBatcher {
  let pending = new Map<string, PathHistory>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    const added: string[] = [];
    const changed: string[] = [];
    const removed: string[] = [];
    for (const [path, { existedBefore, existsNow }] of batch) {
      if (existedBefore && existsNow) changed.push(path);
      else if (existsNow) added.push(path);
      else if (existedBefore) removed.push(path);
    }
    if (added.length + changed.length + removed.length > 0) deliver({ added, changed, removed });
  };

  return {
    push(kind, relPath) {
      const history = pending.get(relPath);
      if (history === undefined) pending.set(relPath, { existedBefore: kind !== 'add', existsNow: kind !== 'remove' });
      else history.existsNow = kind !== 'remove';
      timer ??= setTimeout(flush, delayMs);
    },
    flush,
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      pending.clear();
    },
  };
}
