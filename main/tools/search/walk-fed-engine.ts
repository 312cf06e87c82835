import type { RootAnchor } from '../../platform/disk/anchored-batch';
import type { FsWorkerPool } from '../../platform/search-engines/fs-worker-pool';
import type { SearchSpec } from '../../platform/search-engines/search-types';
import type { SearchEngine } from './search-js-engine';
import { createRipgrepEngine, WALK_BATCH_FILES } from './search-ripgrep-engine';
import type { ConfirmedSink } from './search-ripgrep-walk';
import { WalkBatches } from './walk-batches';

/** The smallest batch worth a message to the file threads, and so the smallest one made. */
const FEW_FILES = 256;

/** The ripgrep engine of walkFedRipgrepEngine, its batches, and the sink that feeds them. */
export interface WalkFedEngine {
  readonly engine: SearchEngine;
  readonly batches: WalkBatches;
  readonly sink: ConfirmedSink;
  /** Stops the checks under way and to come (the walk failed: nobody will take their answers). */
  stop(): void;
}

/**
 * The ripgrep engine fed by ripgrep's confirming walk as it goes (search-ripgrep-walk.ts streamTo):
 * each candidate confirmed goes into a batch with ripgrep's count, and each batch is checked in the
 * file threads while the walk confirms the rest (for 33.5k files of an npm tree, the walk and the
 * checks took ~330 ms each, one after the other).
 */
export function walkFedRipgrepEngine(
  search: {
    readonly rg: string;
    readonly patternArgs: readonly string[];
    readonly workers: FsWorkerPool;
    readonly spec: SearchSpec;
    readonly maxResults: number;
    /** The candidates ripgrep named: the walk hands on at most as many. */
    readonly named: number;
  },
  options: {
    readonly signal: AbortSignal;
    /** Date.now() just before the walk's ripgrep started. */
    readonly startedAt: number;
    readonly anchorOf: (inPersona: boolean) => RootAnchor | undefined;
  },
): WalkFedEngine {
  const walkCounts = { lines: [] as number[], sizes: [] as number[], startedAt: options.startedAt };
  const { rg, patternArgs, workers, spec, maxResults, named } = search;
  const own = new AbortController();
  const signal = AbortSignal.any([options.signal, own.signal]);
  // With the walk's counts no ripgrep is started (no confinement to give). A few thousand
  // candidates make four batches or more, so that the checks of the first run while the walk
  // confirms the rest (1,904 in one batch were checked only once the walk was over: ~20 ms after
  // its 40); the file threads take every batch (the app starts them with itself), so the walk is
  // not held for one.
  const engine = createRipgrepEngine(rg, patternArgs, workers, spec, maxResults, signal, {
    walkCounts,
    batchFiles: Math.min(WALK_BATCH_FILES, Math.max(FEW_FILES, Math.ceil(named / 4))),
    minThreadChecks: FEW_FILES,
  });
  const batches = new WalkBatches(engine, options.anchorOf);
  return {
    engine,
    batches,
    sink: (entry, lines, size) => {
      walkCounts.lines.push(lines);
      walkCounts.sizes.push(size);
      batches.take(entry);
    },
    stop: () => own.abort(),
  };
}
