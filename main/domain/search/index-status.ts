/**
 * Where a workspace index stands, for the UI (an event while it builds) and for the tool's result.
 * `scanning`: the walk and the reading of changed files; `embedding`: vectors for new passages.
 */
export interface IndexStatus {
  readonly root: string;
  readonly state: 'idle' | 'scanning' | 'embedding' | 'ready';
  /** Files in the index now. */
  readonly files: number;
  /** During a scan: files found so far by the walk, and how many of them were checked. */
  readonly filesFound: number;
  readonly filesChecked: number;
  /** Files read (their bytes, not only their identity) since the index was opened: 0 after a warm reopen. */
  readonly filesRead: number;
  /** With an embedding model: passages with a vector, and how many passages there are. */
  readonly vectors?: { readonly model: string; readonly embedded: number; readonly chunks: number };
  /** The last embedding failure (the server down, an unknown model), until a pass succeeds. */
  readonly embeddingError?: string;
}

export type IndexStatusListener = (status: IndexStatus) => void;
