/**
 * Temp files of atomic writes, recorded while they exist. A writer that dies (SIGKILL, power loss)
 * leaves its temp file next to the target; the next start sweeps every file recorded here whose
 * writer is gone, through the same anchored lookups as any write (it can only remove what it made).
 */
export interface TempEntry {
  /** Absolute folder the entry's `dir` is relative to (a workspace or the persona folder). */
  readonly root: string;
  /** Root-relative real folder of the temp file. */
  readonly dir: string;
  readonly name: string;
}

export interface TempJournal {
  add(entry: TempEntry): void;
  remove(entry: TempEntry): void;
}
