import { createHash } from 'node:crypto';
import type { NewChunk } from './segment';
import type { TextChunk } from '../chunk';
import { processTerm, tokenize } from '../tokenize';

/** A heading word counts as this many occurrences in its chunk. */
const HEADING_WEIGHT = 1.5;

/** The key of a chunk's text (its vector's cache key, with the model). */
export const chunkHash = (text: string): string => createHash('sha1').update(text).digest('base64url');

/** A chunk's terms, counted (a heading word weighs HEADING_WEIGHT): the costly part of indexing. */
export function countChunk(chunk: TextChunk): NewChunk {
  const counts = new Map<string, number>();
  let length = 0;
  for (const word of tokenize(chunk.text)) {
    for (const term of processTerm(word)) {
      counts.set(term, (counts.get(term) ?? 0) + 1);
      length += 1;
    }
  }
  for (const word of tokenize(chunk.heading ?? '')) {
    for (const term of processTerm(word)) counts.set(term, (counts.get(term) ?? 0) + HEADING_WEIGHT);
  }
  return {
    startLine: chunk.startLine,
    endLine: chunk.endLine,
    heading: chunk.heading ?? '',
    length,
    hash: chunkHash(chunk.text),
    counts,
  };
}
