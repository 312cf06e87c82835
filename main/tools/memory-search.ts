import { z } from 'zod';
import { err, ok } from '../../shared/result';
import { MemoryIndex } from '../domain/search/memory-index';
import type { ToolEnvironment } from './kit/tool-environment';
import type { MemoryHit } from '../domain/search/memory-index';
import { defineTool } from './define-tool';
import { passageOutput } from './search/search-passages';
import { noticeSchema, passageSchema } from './kit/output-shapes';
import { wholeNumberWithin } from './kit/input-shapes';

const input = z.object({
  query: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .describe('What to look for, in plain words (any language): "tea preferences", "project deadline".'),
  max_results: wholeNumberWithin(1, 20, 6).describe('How many passages to return (default 6).'),
});

/**
 * One index per persona folder, kept between calls: it re-reads only files whose mtime or size
 * changed. Searches on one index run one at a time, so two refreshes never interleave.
 */
const indexes = new Map<string, { index: MemoryIndex; queue: Promise<unknown> }>();

function searchSerialized(env: ToolEnvironment, query: string, max: number): Promise<MemoryHit[]> {
  let entry = indexes.get(env.personaDir);
  if (entry === undefined) {
    entry = { index: new MemoryIndex(), queue: Promise.resolve() };
    indexes.set(env.personaDir, entry);
  }
  const { index } = entry;
  const next = entry.queue.then(() => index.search(env.sandbox, query, max, new Date()));
  entry.queue = next.catch(() => undefined);
  return next;
}

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const memorySearchOutput = z.object({
  query: z.string(),
  results: z.array(passageSchema),
  notice: noticeSchema,
});

export const memorySearchTool = defineTool({
  name: 'memory_search',
  description:
    'Search your long-term memory: MEMORY.md, USER.md and the dated notes in memory/YYYY-MM-DD.md. ' +
    'Local full-text search (word forms in English, Russian and Chinese match), ranked by relevance; older dated notes count less. ' +
    'Returns passages with file and line numbers; read_file a file for more around a passage. Use it before saying you do not remember.',
  input,
  output: memorySearchOutput,
  operations: ['read'],
  memoryOnly: true,
  access: () => [
    { operation: 'read', path: 'MEMORY.md' },
    { operation: 'read', path: 'USER.md' },
    { operation: 'read', path: 'memory' },
  ],
  async run(args, ctx) {
    // The tool-call pipeline does not offer this tool while memory is off; refuse anyway if it gets here.
    if (ctx.env.isConcealed('MEMORY.md')) {
      return err('permission_denied', 'Memory is switched off: memory_search is not available.', {
        reason: 'memory_off',
      });
    }
    const hits = await searchSerialized(ctx.env, args.query, args.max_results);
    return ok({
      query: args.query,
      results: hits.map(passageOutput),
      ...(hits.length === 0
        ? { notice: 'Nothing in memory matches. Try other words, or tell the user you do not have it noted.' }
        : {}),
    });
  },
});
