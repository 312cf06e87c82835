export type NgramState = 'idle' | 'loading' | 'building' | 'ready' | 'failed';

/** What the settings status line and search results say about the index. */
export interface NgramStatus {
  readonly state: NgramState;
  /** Files in the index (while building: indexed so far). */
  readonly files: number;
  /** Files the build's walk found so far (the total once the walk is over). */
  readonly walked: number;
  readonly textBytes: number;
  readonly memoryBytes: number;
  /** Size of the saved file, once saved. */
  readonly diskBytes?: number;
  readonly buildMs?: number;
  readonly error?: string;
}
