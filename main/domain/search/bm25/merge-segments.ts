import type { DiskSegment } from './disk-segment';
import type { TermPostings } from './segment';
import { SegmentWriter, slicer, writeLiveFiles } from './segment-writer';

/**
 * Merges segments into one segment file (their live files, in order): a streaming merge by term
 * over their dictionaries, read sequentially. `fileMaps[s][file]` answers each file's number in the
 * result (-1: deleted, left out).
 */
export async function mergeSegments(
  inputs: readonly DiskSegment[],
): Promise<{ parts: Buffer[]; fileMaps: Int32Array[] }> {
  const pause = slicer();
  const writer = new SegmentWriter();
  const fileMaps: Int32Array[] = [];
  const slotMaps: Int32Array[] = [];
  for (const input of inputs) {
    const { fileMap, slotMap } = writeLiveFiles(writer, input);
    fileMaps.push(fileMap);
    slotMaps.push(slotMap);
  }
  const streams = inputs.map((input) => input.allTerms());
  const heads = streams.map((stream) => stream.next());
  const slots: number[] = [];
  const tf2: number[] = [];
  for (;;) {
    let term: string | undefined;
    for (const head of heads)
      if (head.done !== true && (term === undefined || head.value.term < term)) term = head.value.term;
    if (term === undefined) break;
    slots.length = 0;
    tf2.length = 0;
    heads.forEach((head, s) => {
      if (head.done === true || head.value.term !== term) return;
      const map = slotMaps[s] as Int32Array;
      const { count, slots: from, tf2: tfs } = head.value.postings;
      for (let at = 0; at < count; at += 1) {
        const slot = map[from[at] as number] as number;
        if (slot === -1) continue;
        slots.push(slot);
        tf2.push(tfs[at] as number);
      }
      heads[s] = (streams[s] as Generator<{ term: string; postings: TermPostings }>).next();
    });
    if (slots.length > 0) writer.addTerm(term, slots, tf2);
    await pause();
  }
  return { parts: writer.finish(), fileMaps };
}
