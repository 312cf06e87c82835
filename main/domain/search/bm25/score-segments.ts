import { BestHits } from './best-hits';
import type { Segment, TermPostings } from './segment';
import type { ChunkHit, SearchOptions } from '../text-index';
import { processTerm, tokenize } from '../tokenize';

/** BM25 constants as MiniSearch and Lucene use them. */
const K1 = 1.2;
const B = 0.7;

/**
 * Bm25Index.search: a query's BM25 scores over every segment, one pass over the postings of its few
 * terms in each (no per-match objects, no full sort: only the best `limit` are kept).
 */
export function scoreSegments(segments: readonly Segment[], query: string, options: SearchOptions): ChunkHit[] {
  const terms = [...new Set(tokenize(query).flatMap((word) => processTerm(word)))];
  let liveChunks = 0;
  let totalLength = 0;
  for (const segment of segments) {
    liveChunks += segment.liveChunks;
    totalLength += segment.liveLength;
  }
  if (terms.length === 0 || liveChunks === 0) return [];
  const averageLength = totalLength / liveChunks || 1;
  // df sums every segment's postings (deleted chunks still count until a merge drops them, as in Lucene).
  const lists = segments.map((segment) => terms.map((term) => segment.postings(term)));
  const idfs = terms.map((_, t) => {
    let count = 0;
    for (const list of lists) count += list[t]?.count ?? 0;
    const df = Math.min(count, liveChunks);
    return Math.log(1 + (liveChunks - df + 0.5) / (df + 0.5));
  });
  // Keep the best `limit` (weights and filters applied), without sorting every match.
  const best = new BestHits(options);
  // Which query terms a chunk matched, one bit each (the hit lists them); terms past 32 still score.
  const bit = (t: number) => (t < 32 ? 1 << t : 0);
  segments.forEach((segment, s) => {
    const scores = new Float64Array(segment.slotCount);
    const termBits = new Uint32Array(segment.slotCount);
    const touched: number[] = [];
    terms.forEach((_, t) => {
      const list = (lists[s] as (TermPostings | undefined)[])[t];
      if (list === undefined) return;
      const idf = idfs[t] as number;
      for (let at = 0; at < list.count; at += 1) {
        const slot = list.slots[at] as number;
        if (segment.chunkDead(slot)) continue;
        const tf = (list.tf2[at] as number) / 2;
        if (scores[slot] === 0) touched.push(slot); // every match adds a positive amount
        scores[slot] =
          (scores[slot] as number) +
          (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * segment.chunkLength(slot)) / averageLength));
        termBits[slot] = (termBits[slot] as number) | bit(t);
      }
    });
    // In slot order: the same order whichever segments hold the chunks (a merge changes no answer).
    const order = Int32Array.from(touched).sort();
    for (const slot of order) {
      const raw = scores[slot] as number;
      if (options.weight === undefined && !best.admits(raw)) continue;
      const path = segment.path(segment.chunkFile(slot));
      if (!best.allows(path)) continue;
      const score = raw * (options.weight?.(path) ?? 1);
      if (!best.admits(score)) continue;
      const bits = termBits[slot] as number;
      best.add(
        segment,
        slot,
        path,
        score,
        terms.filter((_, t) => (bits & bit(t)) !== 0),
      );
    }
  });
  return best.hits;
}
