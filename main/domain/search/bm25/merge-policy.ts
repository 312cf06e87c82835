import { DiskSegment } from './disk-segment';
import type { Segment } from './segment';

/** Segments whose chunk counts are within a factor of MERGE_FACTOR are merged once there are MERGE_FACTOR of them. */
const MERGE_FACTOR = 4;
const MERGE_FLOOR_CHUNKS = 2_000;
/**
 * Segments this big are merged no more (as Lucene caps a merged segment's size), so a merge makes
 * at most ~64,000 chunks. A merge holds its output in memory until it is written: merging four of
 * ~45,000 chunks made a 40 MB segment and took 80 MB more at the build's peak (issue 32 item 7).
 * A query pays a dictionary lookup per segment, tens of microseconds: a big workspace has ten or
 * so segments instead of three.
 */
const MAX_MERGED_CHUNKS = 16_000;

/**
 * The segments Bm25Index.mergeSmall merges next: the first mostly deleted one alone (rewritten
 * without its dead chunks), else the first MERGE_FACTOR on disk of about the same size; none when
 * no group is due.
 */
export function nextMergeGroup(segments: readonly Segment[]): DiskSegment[] | undefined {
  const disk = segments.filter((segment): segment is DiskSegment => segment instanceof DiskSegment);
  const levels = new Map<number, DiskSegment[]>();
  let group: DiskSegment[] | undefined;
  for (const segment of disk) {
    if (segment.deadChunks > 1000 && segment.deadChunks > segment.liveChunks) {
      group = [segment];
      break;
    }
    if (segment.slotCount >= MAX_MERGED_CHUNKS) continue;
    const level = Math.floor(Math.log(Math.max(1, segment.slotCount / MERGE_FLOOR_CHUNKS)) / Math.log(MERGE_FACTOR));
    const same = levels.get(level) ?? [];
    same.push(segment);
    levels.set(level, same);
    if (same.length >= MERGE_FACTOR) {
      group = same;
      break;
    }
  }
  return group;
}
