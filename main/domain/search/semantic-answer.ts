import type { ForegroundGate } from '../../platform/search-engines/foreground-gate';
import type { AnchoredFs } from '../../platform/disk/anchored-fs';
import type { Result } from '../../../shared/result';
import type { Embedder } from '../providers/embedding-model';
import type { IndexStatus, IndexStatusListener } from './index-status';
import type { SearchHit } from './snippets';

/** What the semantic index answers and how it is set up: the vocabulary its users share. */

export type SemanticHit = SearchHit;

/**
 * The embedding model to use, read on every query (settings change while the app runs): undefined
 * when none is configured, an error when one is configured but cannot be used.
 */
export type EmbedderSource = () => Result<Embedder> | undefined;

export interface IndexOptions {
  /** Follow outside changes with a tree watcher on folders opened through `anchored` (without it, no watch). */
  readonly watchChanges?: boolean;
  readonly anchored?: AnchoredFs;
  readonly embedder?: EmbedderSource;
  readonly onStatus?: IndexStatusListener;
  /**
   * The index of `workspaceRoot` started (true) or stopped (false) working: a scan or an embedding
   * pass runs, or both (they overlap: a query's scan does not wait for a pass). `status().state` is
   * the last of the two to speak, so it cannot say this.
   */
  readonly onWorking?: (workspaceRoot: string, working: boolean) => void;
  /** Where the vector caches live (default: beside the index file). */
  readonly vectorsDir?: string;
  /** Tool calls running (issue 32 item 1): a build pauses between two batches while any does. */
  readonly foreground?: ForegroundGate;
}

export interface SemanticAnswer {
  readonly hits: SemanticHit[];
  /** False while the first build is still running: the hits cover only part of the workspace. */
  readonly complete: boolean;
  /**
   * 'building': the scan or the embedding pass was still running when the query answered (from what
   * was indexed by then; `status` says how much); 'ready': the answer covers the whole workspace.
   */
  readonly state: 'building' | 'ready';
  /** 'hybrid': BM25 and embedding vectors fused; 'bm25': words only (no model, or it failed). */
  readonly ranking: 'bm25' | 'hybrid';
  readonly status: IndexStatus;
  /** Why the ranking is BM25 alone although a model is configured, or how far the vectors are. */
  readonly notice?: string;
}

export interface IndexStats {
  readonly files: number;
  /** Files read and (re)indexed by the last refresh. */
  readonly reindexed: number;
  readonly fullScan: boolean;
}
