import MiniSearch from 'minisearch';
import type { Options, SearchResult } from 'minisearch';
import { chunkText } from './chunk';
import type { ChunkOptions } from './chunk';
import { processTerm, tokenize } from './tokenize';

export interface ChunkHit {
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly heading: string | undefined;
  readonly score: number;
  /** The query terms (as indexed) that matched, for highlighting snippets. */
  readonly terms: readonly string[];
}

export interface SearchOptions {
  readonly limit: number;
  readonly filter?: (path: string) => boolean;
  /** Multiplies a hit's relevance, e.g. recency decay for dated notes. */
  readonly weight?: (path: string) => number;
}

interface StoredChunk {
  readonly id: string;
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly heading: string;
  readonly text: string;
}

const searchFields = ['text', 'heading'];
const storeFields = ['path', 'startLine', 'endLine', 'heading'];

const engineOptions: Options<StoredChunk> = {
  fields: searchFields,
  storeFields,
  tokenize,
  processTerm: (term) => [...processTerm(term)], // MiniSearch's own list, not the cache's
  searchOptions: {
    boost: { heading: 1.5 },
    combineWith: 'OR',
    // Word forms the stemmer misses still meet half-way; short words must match exactly.
    prefix: (term: string) => term.length >= 4,
    fuzzy: (term: string) => (term.length >= 6 ? 0.15 : false),
  },
};

const newEngine = () => new MiniSearch<StoredChunk>(engineOptions);

/**
 * A local full-text index (BM25 via MiniSearch) over chunks of text files: no key, no download.
 * Documents are replaced whole when their file changes; chunk text is not stored, so memory stays
 * proportional to the vocabulary rather than the corpus (snippets are read from disk for the top hits).
 */
export class TextIndex {
  private engine = newEngine();
  private readonly chunkIds = new Map<string, string[]>();
  private readonly versions = new Map<string, string>();

  constructor(private readonly chunking: ChunkOptions) {}

  get documentCount(): number {
    return this.chunkIds.size;
  }

  /** The version (e.g. mtime) a path was indexed at, to skip unchanged files. */
  versionOf(path: string): string | undefined {
    return this.versions.get(path);
  }

  paths(): IterableIterator<string> {
    return this.chunkIds.keys();
  }

  setDocument(path: string, text: string, version: string): void {
    this.removeDocument(path);
    const chunks = chunkText(text, this.chunking).map((chunk, index) => ({
      id: `${path}#${index}`,
      path,
      startLine: chunk.startLine,
      endLine: chunk.endLine,
      heading: chunk.heading ?? '',
      text: chunk.text,
    }));
    this.engine.addAll(chunks);
    this.chunkIds.set(
      path,
      chunks.map((chunk) => chunk.id),
    );
    this.versions.set(path, version);
  }

  removeDocument(path: string): void {
    for (const id of this.chunkIds.get(path) ?? []) this.engine.discard(id);
    this.chunkIds.delete(path);
    this.versions.delete(path);
  }

  search(query: string, options: SearchOptions): ChunkHit[] {
    const filter = options.filter;
    const results: SearchResult[] = this.engine.search(
      query,
      filter === undefined ? {} : { filter: (result) => filter(String(result['path'])) },
    );
    const weighted = results.map((result) => {
      const path = String(result['path']);
      return {
        path,
        startLine: Number(result['startLine']),
        endLine: Number(result['endLine']),
        heading: result['heading'] === '' ? undefined : String(result['heading']),
        score: result.score * (options.weight?.(path) ?? 1),
        terms: result.terms,
      };
    });
    return weighted.sort((a, b) => b.score - a.score).slice(0, options.limit);
  }

  toJSON(): unknown {
    return { engine: this.engine.toJSON(), chunkIds: [...this.chunkIds], versions: [...this.versions] };
  }

  /** Restores a saved index; answers false (and stays empty) when the data does not fit. */
  load(saved: unknown): boolean {
    try {
      const data = saved as { engine: unknown; chunkIds: [string, string[]][]; versions: [string, string][] };
      const engine = MiniSearch.loadJSON<StoredChunk>(JSON.stringify(data.engine), engineOptions);
      this.engine = engine;
      this.chunkIds.clear();
      this.versions.clear();
      for (const [path, ids] of data.chunkIds) this.chunkIds.set(path, ids);
      for (const [path, version] of data.versions) this.versions.set(path, version);
      return true;
    } catch {
      this.engine = newEngine();
      return false;
    }
  }
}
