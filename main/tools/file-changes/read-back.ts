import { ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { OpenFile } from '../../platform/disk/anchored-read';
import type { EntryFacts } from '../../platform/disk/workspace-sandbox';
import { LentBuffers } from './lent-buffers';

/** The buffers read-backs compare what is on disk in: one MB each, not a copy of the file per change. */
const chunks = new LentBuffers();
const CHUNK_BYTES = 1 << 20;

/**
 * Whether the open file holds exactly `pieces` (commitFile's read-back: what is on disk must be what
 * was meant), read a chunk at a time rather than whole: a change of a 5 MB file does not read 5 MB
 * more into memory.
 */
export async function readsBackAs(
  file: OpenFile,
  pieces: readonly Buffer[],
): Promise<Result<{ same: boolean; facts: EntryFacts }>> {
  const size = pieces.reduce((sum, piece) => sum + piece.length, 0);
  if (file.facts.size !== size) return ok({ same: false, facts: file.facts });
  return chunks.lend(CHUNK_BYTES, async (chunk) => {
    let piece = 0;
    let inPiece = 0;
    for (let at = 0; at < size;) {
      const { bytesRead } = await file.handle.read(chunk, 0, Math.min(chunk.length, size - at), at);
      if (bytesRead === 0) return ok({ same: false, facts: file.facts });
      for (let done = 0; done < bytesRead;) {
        const current = pieces[piece]!;
        const n = Math.min(bytesRead - done, current.length - inPiece);
        if (chunk.compare(current, inPiece, inPiece + n, done, done + n) !== 0)
          return ok({ same: false, facts: file.facts });
        done += n;
        inPiece += n;
        if (inPiece === current.length) {
          piece += 1;
          inPiece = 0;
        }
      }
      at += bytesRead;
    }
    return ok({ same: true, facts: file.facts });
  });
}
