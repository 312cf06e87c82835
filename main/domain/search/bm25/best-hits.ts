import type { ChunkHit, SearchOptions } from '../text-index';
import type { Segment } from './segment';

/**
 * The best `limit` hits of a search as they come, kept in score order without sorting every match;
 * the filter (concealment, deny-list globs) asked once per path.
 */
export class BestHits {
  readonly hits: ChunkHit[] = [];
  private readonly allowed = new Map<string, boolean>();

  constructor(private readonly options: SearchOptions) {}

  /** False when a hit of this score cannot make the list (it is full of better ones). */
  admits(score: number): boolean {
    return !(this.hits.length === this.options.limit && score <= (this.hits.at(-1) as ChunkHit).score);
  }

  allows(path: string): boolean {
    let ok = this.allowed.get(path);
    if (ok === undefined) {
      ok = this.options.filter?.(path) ?? true;
      this.allowed.set(path, ok);
    }
    return ok;
  }

  /** Puts a segment's chunk in its place by score (the last goes when the list is over `limit`). */
  add(segment: Segment, slot: number, path: string, score: number, terms: string[]): void {
    const heading = segment.heading(slot);
    const hit: ChunkHit = {
      path,
      startLine: segment.startLine(slot),
      endLine: segment.endLine(slot),
      heading: heading === '' ? undefined : heading,
      score,
      terms,
    };
    let index = this.hits.length;
    while (index > 0 && (this.hits[index - 1] as ChunkHit).score < score) index -= 1;
    this.hits.splice(index, 0, hit);
    if (this.hits.length > this.options.limit) this.hits.pop();
  }
}
