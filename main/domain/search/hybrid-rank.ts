import type { ChunkHit } from './text-index';

/** Reciprocal rank fusion's constant (Cormack et al. 2009): damps the weight of the very first ranks. */
const RRF_K = 60;

/**
 * Reciprocal rank fusion: each list gives a passage 1 / (k + rank); passages found by both lists
 * add up. Scores on different scales (BM25, cosine) need no calibration this way. A passage keeps
 * its BM25 terms (for snippets) when BM25 found it.
 */
export function fuseRankings(lists: readonly (readonly ChunkHit[])[], limit: number): ChunkHit[] {
  const fused = new Map<string, { hit: ChunkHit; score: number }>();
  for (const list of lists) {
    list.forEach((hit, rank) => {
      const key = `${hit.path}\0${hit.startLine}`;
      const seen = fused.get(key);
      const add = 1 / (RRF_K + rank + 1);
      if (seen === undefined) fused.set(key, { hit, score: add });
      else {
        seen.score += add;
        if (seen.hit.terms.length === 0) seen.hit = hit;
      }
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(({ hit, score }) => ({ ...hit, score }));
}
