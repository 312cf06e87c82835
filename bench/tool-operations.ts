import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import { familiarPaths } from '../main/platform/storage/paths';
import type { AnyTool } from '../main/tools/define-tool';
import { editFileTool, listFilesTool, readFileTool, searchInCodeTool } from '../main/tools/index';
import { createToolEnvironment } from '../main/tools/kit/tool-services';
import type { TextReadOutput } from '../main/tools/read-file';
import { corpusLayout } from './corpus';
import type { Corpus } from './corpus';
import { benchServices, benchToolCalls } from './tool-calls';
import { mcpRoundTrip } from './mcp-round-trip';

/**
 * What `npm run bench:tools` times on Familiar's side: a warm Familiar (the tool calls as the app
 * makes them) and the named operations, each of which a child process (`run.mjs --child <name>`)
 * can run alone for its peak memory and CPU.
 */

export async function familiar(corpus: Corpus) {
  const home = await mkdtemp(join(tmpdir(), 'familiar-bench-'));
  const paths = familiarPaths(home);
  // Cold figures: every search scans (the index has its own rows, bench/index-bench.ts).
  const services = benchServices(paths);
  const env = await createToolEnvironment({ services, workspaceRoot: corpus.root });
  const call = benchToolCalls(
    [editFileTool, listFilesTool, readFileTool, searchInCodeTool] as AnyTool[],
    env,
    paths.audit,
    services.limits,
  );
  const handle = {
    call,
    toolCalls: call.toolCalls,
    /** An MCP client and server over this pipeline, made by the first operation that needs one. */
    mcp: undefined as Awaited<ReturnType<typeof mcpRoundTrip>> | undefined,
    dispose: async () => {
      await handle.mcp?.close();
      await services.dispose();
      await rm(home, { recursive: true, force: true });
    },
  };
  return handle;
}

export type Familiar = Awaited<ReturnType<typeof familiar>>;

export const rangeStart = 1_500_000;
export const rangeEnd = 1_500_100;
export const relative = (corpus: Corpus, path: string) => path.slice(corpus.root.length + 1);

export const midStart = 1_000_000;

/** read_file on one of the corpus's text files (never an image or a PDF). */
export async function readText(f: Familiar, args: z.input<typeof readFileTool.input>): Promise<TextReadOutput> {
  const read = await f.call(readFileTool, args);
  if (read.kind !== 'text') throw new Error(`read_file answered a ${read.kind} for ${args.path}`);
  return read;
}

/**
 * The last 50 lines, read from the end. (Before issue 16 read_file had no negative start_line: its
 * "before" figure asked for start_line=1999951 and scanned the file from the start.)
 */
export async function readTail(f: Familiar, path: string): Promise<{ content: string; form: string }> {
  const read = await readText(f, { path, start_line: -50 });
  return {
    content: read.content,
    form: `start_line=-50${read.total_lines === undefined ? ', lines not counted' : ''}`,
  };
}

/** The operations, each runnable alone in a child process for its peak RSS. */
export const operations: Record<string, (f: Familiar, corpus: Corpus) => Promise<unknown>> = {
  'search-rare': (f) => f.call(searchInCodeTool, { query: corpusLayout.needle, max_results: 1000 }),
  'search-common': (f) => f.call(searchInCodeTool, { query: 'return undefined', max_results: 1000 }),
  'search-sensitive': (f) =>
    f.call(searchInCodeTool, { query: corpusLayout.needle, case_sensitive: true, max_results: 1000 }),
  'search-regex': (f) =>
    f.call(searchInCodeTool, { query: 'export function \\w+Handler\\d', is_regex: true, max_results: 1000 }),
  'list-recursive': (f) => f.call(listFilesTool, { path: '.', recursive: true, max_entries: 1_000_000 }),
  'list-recursive-mcp': async (f) => {
    f.mcp ??= await mcpRoundTrip(f.toolCalls);
    return f.mcp.call('list_files', { path: '.', recursive: true, max_entries: 1_000_000 });
  },
  'range-read-200mb': (f, c) =>
    f.call(readFileTool, { path: relative(c, c.logFile), start_line: rangeStart, end_line: rangeEnd }),
  'tail-read-200mb': (f, c) => readTail(f, relative(c, c.logFile)),
  'range-read-5mb': (f, c) =>
    f.call(readFileTool, { path: relative(c, c.bigSourceFile), start_line: 50_000, end_line: 50_100 }),
  'edit-5mb': async (f, c) => {
    for (const [from, to] of [
      [0, 1],
      [1, 0],
    ]) {
      await f.call(editFileTool, {
        path: relative(c, c.bigSourceFile),
        oldText: `${corpusLayout.editMarker} ${from}`,
        newText: `${corpusLayout.editMarker} ${to}`,
      });
    }
  },
  idle: () => Promise.resolve(),
};
