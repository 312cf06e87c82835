import type { SearchHit } from '../../domain/search/snippets';

/** A passage as the search tools answer it (snake_case, heading only when there is one). */
export interface PassageOutput {
  readonly file: string;
  readonly start_line: number;
  readonly end_line: number;
  readonly heading?: string;
  readonly score: number;
  readonly snippet: string;
}

/** file_semantic_search and memory_search answer their hits the same way. */
export const passageOutput = (hit: SearchHit): PassageOutput => ({
  file: hit.file,
  start_line: hit.startLine,
  end_line: hit.endLine,
  ...(hit.heading === undefined ? {} : { heading: hit.heading }),
  score: hit.score,
  snippet: hit.snippet,
});
