import type { ChunkHit } from './text-index';

/** One passage a search found, with its text as the file holds it now. */
export interface SearchHit {
  /** Relative to the folder searched (the workspace, or the persona folder for memory). */
  readonly file: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly heading: string | undefined;
  readonly score: number;
  readonly snippet: string;
}

/**
 * Turns index hits into passages. Every snippet is read again at query time (`linesOf`, once per
 * file, through the sandbox): a hit whose file is not the one indexed any more (`undefined`) is
 * dropped, never shown with stale text. Snippets longer than `snippetChars` are cut with "…".
 */
export async function withSnippets(
  hits: readonly ChunkHit[],
  linesOf: (path: string) => Promise<string[] | undefined>,
  snippetChars: number,
): Promise<SearchHit[]> {
  const files = new Map<string, Promise<string[] | undefined>>();
  const described = await Promise.all(
    hits.map(async (hit): Promise<SearchHit | undefined> => {
      let lines = files.get(hit.path);
      if (lines === undefined) {
        lines = linesOf(hit.path);
        files.set(hit.path, lines);
      }
      const text = await lines;
      if (text === undefined) return undefined;
      const snippet = text.slice(hit.startLine - 1, hit.endLine).join('\n');
      return {
        file: hit.path,
        startLine: hit.startLine,
        endLine: hit.endLine,
        heading: hit.heading,
        score: Math.round(hit.score * 1000) / 1000,
        snippet: snippet.length > snippetChars ? `${snippet.slice(0, snippetChars)}…` : snippet,
      };
    }),
  );
  return described.filter((hit) => hit !== undefined);
}
