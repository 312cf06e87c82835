import type { DiskSegment } from './disk-segment';
import { decodeEach } from './segment-bytes';
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
  let map: Int32Array = new Int32Array(0);
  const keep = (slot: number, tf: number) => {
    const to = map[slot] as number;
    if (to === -1) return;
    slots.push(to);
    tf2.push(tf);
  };
  for (;;) {
    let term: string | undefined;
    for (const head of heads)
      if (head.done !== true && (term === undefined || head.value.term < term)) term = head.value.term;
    if (term === undefined) break;
    slots.length = 0;
    tf2.length = 0;
    heads.forEach((head, s) => {
      if (head.done === true || head.value.term !== term) return;
      map = slotMaps[s] as Int32Array;
      decodeEach(head.value.bytes, head.value.df, keep);
      heads[s] = (streams[s] as (typeof streams)[number]).next();
    });
    if (slots.length > 0) writer.addTerm(term, slots, tf2);
    await pause();
  }
  return { parts: writer.finish(), fileMaps };
}
