import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { OpenFile } from './anchored-read';

/**
 * The USER choosing where to save a copy of a workspace file (the native Save dialog): the one
 * place that writes to an absolute path outside any workspace. What it writes is exactly the bytes
 * of a file the sandbox already opened (read from that handle, never by path); the target is the
 * user's own answer to the dialog, which also asked before replacing an existing file.
 */
export async function copyToChosenFile(opened: OpenFile, target: string): Promise<void> {
  const { handle, facts } = opened;
  // An empty range has no valid `end`: an empty file is written without reading.
  if (facts.size === 0) await pipeline([], createWriteStream(target));
  else await pipeline(handle.createReadStream({ start: 0, end: facts.size - 1 }), createWriteStream(target));
}
