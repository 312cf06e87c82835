import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import type { IndexStatus } from '../domain/search/index-status';
import { defineTool } from './define-tool';
import { passageOutput } from './search-passages';
import type { PassageOutput } from './search-passages';

const input = z.object({
  query: z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .describe('What you are looking for, in words (any word form; English, Russian and Chinese are understood).'),
  top_k: z.number().int().min(1).max(10).default(3).describe('How many passages to return (1-10, default 3).'),
});

export interface SemanticSearchOutput {
  readonly results: PassageOutput[];
  readonly indexed_files: number;
  /** 'hybrid': words (BM25) and meaning (embedding vectors) fused; 'bm25': words alone. */
  readonly ranking: 'bm25' | 'hybrid';
  /** False while the first build of the index is still running: results cover only part of the workspace. */
  readonly complete: boolean;
  /** The index's state: building (files checked of found), and files read since it was opened. */
  readonly index: {
    readonly state: IndexStatus['state'];
    readonly files_found: number;
    readonly files_checked: number;
    readonly files_read: number;
    readonly embedding_model?: string;
    readonly embedded_passages?: number;
    readonly passages?: number;
  };
  readonly notice?: string;
}

const NO_MODEL =
  'Ranked by words alone (BM25): no embedding model is configured (Settings, Search). Rephrase with the words the text would use.';

export const fileSemanticSearchTool = defineTool({
  name: 'file_semantic_search',
  description:
    "Find passages in the workspace's text files by topic rather than exact text: ranked full-text search with word-form matching (stemming), over heading/paragraph chunks. " +
    'Returns file, start_line/end_line, score and a snippet per passage; read_file with those lines for more. For exact strings or regexes use search_in_code.',
  input,
  operations: ['read'],
  returnsContent: true,
  access: () => [{ operation: 'read', path: '.' }],
  async run(args, ctx): Promise<Result<SemanticSearchOutput>> {
    const { env } = ctx;
    if (env.searchIndexes === undefined) {
      return err('internal_error', 'The workspace search index is not available in this session.');
    }
    const index = env.searchIndexes.for(env.sandbox);
    // Memory files the assistant must not see right now, and secrets, never come back.
    const visible = (path: string) => !env.isConcealed(path) && !env.sandbox.denyList.deniesRead(path);
    const answer = await index.search(args.query, args.top_k, visible);
    const { hits, complete, status } = answer;
    const notices = [
      ...(complete
        ? []
        : [
            `The index is still being built (${status.filesChecked} of ${status.filesFound} files checked): results cover part of the workspace; ask again shortly.`,
          ]),
      ...(answer.notice !== undefined ? [answer.notice] : answer.ranking === 'bm25' ? [NO_MODEL] : []),
      ...(hits.length === 0 ? ['Nothing matched. Try other words, or search_in_code for exact text.'] : []),
    ];
    return ok({
      results: hits.map(passageOutput),
      indexed_files: index.fileCount,
      ranking: answer.ranking,
      complete,
      index: {
        state: status.state,
        files_found: status.filesFound,
        files_checked: status.filesChecked,
        files_read: status.filesRead,
        ...(status.vectors === undefined
          ? {}
          : {
              embedding_model: status.vectors.model,
              embedded_passages: status.vectors.embedded,
              passages: status.vectors.chunks,
            }),
      },
      ...(notices.length === 0 ? {} : { notice: notices.join(' ') }),
    });
  },
});
