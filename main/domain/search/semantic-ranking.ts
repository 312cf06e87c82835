import { messageOf } from '../../../shared/errors';
import type { WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import type { Embedder } from '../providers/embedding-model';
import type { Bm25Index } from './bm25/bm25-index';
import { fuseRankings } from './hybrid-rank';
import { linesIfUnchanged } from './indexed-file';
import type { IndexStatus } from './index-status';
import type { PassageVectors } from './passage-vectors';
import type { EmbedderSource, SemanticAnswer, SemanticHit } from './semantic-answer';
import { settlesWithin } from './settles-within';
import { withSnippets } from './snippets';
import type { ChunkHit } from './text-index';
import { unitVector } from './vector-cache';
import type { VectorCache } from './vector-cache';
import { MAX_INDEXED_FILE_BYTES } from './workspace-scanner';

const SNIPPET_CHARS = 500;
/** Each ranking hands this many candidates to the fusion. */
const FUSION_CANDIDATES = 50;

export interface SemanticRankingOptions {
  readonly index: Bm25Index;
  /** The index's sandbox: each hit's lines are read again through it. */
  readonly sandbox: WorkspaceSandbox;
  readonly vectors: PassageVectors;
  /** The embedding model as the settings say now (asked once per query). */
  readonly embedder: () => ReturnType<EmbedderSource>;
  /** Vectors for the passages that have none (the index's embedPending). */
  readonly embedPending: (embedder: Embedder, include: (path: string) => boolean) => Promise<void>;
  /** Where the index stands as the answer goes out. */
  readonly status: () => IndexStatus;
  /** A hit's file is no longer the one indexed: the next query re-reads it. */
  readonly onStale: (path: string) => void;
}

/**
 * A query's answer from what the index holds now: BM25 alone, or fused with the embedding vectors'
 * ranking when a model is set and works (else the answer says why it is words alone), each hit
 * with its lines read again. Apart from the index because the index decides when to answer (how
 * long a query waits for the build) and this decides what the answer says.
 */
export class SemanticRanking {
  constructor(private readonly options: SemanticRankingOptions) {}

  async answer(
    query: string,
    limit: number,
    visible: (path: string) => boolean,
    complete: boolean,
    /** Undefined: answer from the saved index, no embedding pass yet (a restart's first query). */
    deadline: number | undefined,
  ): Promise<SemanticAnswer> {
    const { index } = this.options;
    const lexical = index.search(query, { limit: Math.max(limit, FUSION_CANDIDATES), filter: visible });
    const answerState = () => ({
      complete,
      state: !complete || this.options.vectors.embedding ? ('building' as const) : ('ready' as const),
      status: this.options.status(),
    });
    const bm25 = async (notice?: string): Promise<SemanticAnswer> => ({
      hits: await this.snippets(lexical.slice(0, limit)),
      ranking: 'bm25',
      ...answerState(),
      ...(notice === undefined ? {} : { notice }),
    });
    const source = this.options.embedder();
    if (source === undefined) return bm25();
    if (!source.ok)
      return bm25(`Ranked by words alone (BM25): the embedding model cannot be used (${source.error.message}).`);
    const embedder = source.value;
    // New passages get their vectors in the background; the query waits for them until its deadline.
    if (deadline === undefined) await this.options.vectors.opened(embedder);
    else await settlesWithin(this.options.embedPending(embedder, visible), Math.max(0, deadline - Date.now()));
    let queryVector: Float32Array;
    try {
      const [vector] = await embedder.embed([query]);
      if (vector === undefined) throw new Error('no vector for the query');
      queryVector = unitVector(vector);
    } catch (error) {
      return bm25(`Ranked by words alone (BM25): embedding the query failed (${messageOf(error)}).`);
    }
    const cache = this.options.vectors.cache as VectorCache;
    const semantic = index.vectorSearch((hash) => cache.score(hash, queryVector), {
      limit: FUSION_CANDIDATES,
      filter: visible,
    });
    const hits = await this.snippets(fuseRankings([lexical, semantic], limit));
    const answer = answerState();
    const vectors = answer.status.vectors;
    const partial =
      vectors !== undefined && vectors.embedded < vectors.chunks
        ? `Vectors cover ${vectors.embedded} of ${vectors.chunks} passages so far (still embedding).`
        : undefined;
    return { hits, ranking: 'hybrid', ...answer, ...(partial === undefined ? {} : { notice: partial }) };
  }

  private async snippets(hits: readonly ChunkHit[]): Promise<SemanticHit[]> {
    const { index, sandbox } = this.options;
    return withSnippets(
      hits,
      async (path) => {
        const version = index.versionOf(path);
        const now =
          version === undefined ? undefined : await linesIfUnchanged(sandbox, path, version, MAX_INDEXED_FILE_BYTES);
        // Not the file indexed any more: no snippet from it, and the next query re-reads it.
        if (now === undefined) this.options.onStale(path);
        return now;
      },
      SNIPPET_CHARS,
    );
  }
}
