import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { defineTool } from './define-tool';
import { tickProgress } from './kit/progress-ticker';
import { passageOutput } from './search/search-passages';
import { noticeSchema, passageSchema } from './kit/output-shapes';
import { wholeNumberWithin } from './kit/input-shapes';

const input = z.object({
  query: z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .describe('What you are looking for, in words (any word form; English, Russian and Chinese are understood).'),
  top_k: wholeNumberWithin(1, 10, 3).describe('How many passages to return (1-10, default 3).'),
});

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const semanticSearchOutput = z.object({
  results: z.array(passageSchema),
  indexed_files: z.number().int(),
  ranking: z
    .enum(['bm25', 'hybrid'])
    .describe("'hybrid': words (BM25) and meaning (embedding vectors) fused; 'bm25': words alone."),
  complete: z
    .boolean()
    .describe('False while the first build of the index is still running: results cover only part of the workspace.'),
  state: z
    .enum(['building', 'ready'])
    .describe(
      "'building': the index (files or their vectors) was still being built; results come from what `coverage` says is indexed. 'ready': the whole workspace.",
    ),
  coverage: z.object({
    files_indexed: z.number().int(),
    files_found: z.number().int(),
    passages_embedded: z.number().int().exactOptional(),
    passages: z.number().int().exactOptional(),
  }),
  /** The index's state: building (files checked of found), and files read since it was opened. */
  index: z.object({
    state: z.enum(['idle', 'scanning', 'embedding', 'ready']),
    files_found: z.number().int(),
    files_checked: z.number().int(),
    files_read: z.number().int(),
    embedding_model: z.string().exactOptional(),
    embedded_passages: z.number().int().exactOptional(),
    passages: z.number().int().exactOptional(),
  }),
  notice: noticeSchema,
});
export type SemanticSearchOutput = z.output<typeof semanticSearchOutput>;

const NO_MODEL =
  'Ranked by words alone (BM25): no embedding model is configured (Settings, Search). Rephrase with the words the text would use.';

export const fileSemanticSearchTool = defineTool({
  name: 'file_semantic_search',
  description:
    "Find passages in the workspace's text files by topic rather than exact text: ranked full-text search with word-form matching (stemming), over heading/paragraph chunks. " +
    'Returns file, start_line/end_line, score and a snippet per passage; read_file with those lines for more. For exact strings or regexes use search_in_code.',
  input,
  output: semanticSearchOutput,
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
    // The first build of a big workspace's index is the long part: say how many files it has so far.
    const stop = tickProgress(ctx, 250, () => [index.fileCount, undefined, `${index.fileCount} files indexed`]);
    const answer = await index.search(args.query, args.top_k, visible).finally(stop);
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
      state: answer.state,
      coverage: {
        files_indexed: status.files,
        files_found: Math.max(status.filesFound, status.files),
        ...(status.vectors === undefined
          ? {}
          : { passages_embedded: status.vectors.embedded, passages: status.vectors.chunks }),
      },
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
