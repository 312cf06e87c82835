import picomatch from 'picomatch';
import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import type { FileMatches } from '../platform/sandbox/search-types';
import { AnchoredBatch } from '../platform/sandbox/anchored-batch';
import { ripgrepPatternArgs } from '../platform/sandbox/ripgrep-pattern';
import { defineTool } from './define-tool';
import { createJsEngine } from './search-js-engine';
import type { BatchResult, SearchEngine } from './search-js-engine';
import { createRipgrepEngine } from './search-ripgrep-engine';
import { compileQuery } from './search-query';

const input = z.object({
  query: z.string().min(1).describe('Text to find (or a JavaScript regular expression with is_regex).'),
  is_regex: z.boolean().default(false),
  path: z.string().default('.').describe("Folder or file to search, relative to the workspace root (default '.')."),
  file_pattern: z.string().min(1).optional().describe("Glob for the files to search, e.g. '*.ts' or 'src/**/*.py'."),
  case_sensitive: z.boolean().default(false),
  context_lines: z.number().int().min(0).max(10).default(0).describe('Lines of context before and after each match.'),
  max_results: z.number().int().min(1).max(1000).default(100),
  include_ignored: z
    .boolean()
    .default(false)
    .describe('Also search git-ignored files and node_modules, e.g. to look into a dependency (default false).'),
});

export interface SearchResult {
  /** Workspace-relative path of the file. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly text: string;
  readonly context?: { readonly before: string[]; readonly after: string[] };
}

export interface SearchInCodeOutput {
  readonly query: string;
  readonly results: SearchResult[];
  /** Matching lines in all searched files (results are capped by max_results). */
  readonly total_matches: number;
  readonly files_with_matches: number;
  readonly truncated: boolean;
  readonly searched_files: number;
  /**
   * Binary files skipped (a NUL byte in their first 8 KB). With ripgrep, only those in which the
   * query matched: ripgrep does not report files without a match.
   */
  readonly skipped_binary: number;
  /** Who searched: ripgrep (on PATH) or Familiar's own engine in worker threads. */
  readonly engine: 'ripgrep' | 'js';
  readonly notice?: string;
}

export const searchInCodeTool = defineTool({
  name: 'search_in_code',
  description:
    'Search the text of the files in a folder (or one file): one result per matching line, with file, line, column, text and optional context. ' +
    'Case-insensitive unless case_sensitive; literal unless is_regex. Honours .gitignore, skips binary files, hidden files, .git and node_modules (include_ignored searches ignored files and node_modules too). ' +
    'Reports total_matches and truncated when more than max_results matched.',
  input,
  operations: ['read'],
  returnsContent: true,
  access: (args) => [{ operation: 'read', path: args.path }],
  async run(args, ctx): Promise<Result<SearchInCodeOutput>> {
    const { sandbox, limits, workers } = ctx.env;
    const spec = compileQuery(args.query, {
      isRegex: args.is_regex,
      caseSensitive: args.case_sensitive,
      contextLines: args.context_lines,
      maxLineChars: limits.maxLineChars,
    });
    if (!spec.ok) return spec;
    const resolved = await sandbox.resolve(args.path, 'read');
    if (!resolved.ok) return resolved;
    const start = resolved.value;
    if (start.facts === undefined) return err('file_not_found', `'${start.display}' does not exist.`);

    // ripgrep when it is on PATH and the query means the same to it; else the JS engine.
    const patternArgs = ctx.env.ripgrep === undefined ? undefined : ripgrepPatternArgs(spec.value);
    const engine: SearchEngine =
      patternArgs === undefined || ctx.env.ripgrep === undefined
        ? createJsEngine(workers, spec.value, args.max_results, ctx.signal)
        : createRipgrepEngine(ctx.env.ripgrep, patternArgs, workers, spec.value, args.max_results, ctx.signal);

    // Files in walk order (sorted depth-first): their workspace paths, and batches naming them the
    // anchored way for the engine (AnchoredBatch), handed over while the walk goes on.
    const files: string[] = [];
    let flushed = 0;
    const gathering = new AnchoredBatch((inPersona) => sandbox.anchorOf(inPersona));
    const flush = () => {
      const taken = gathering.take();
      // A batch whose root vanished meanwhile searches nothing; its files still count as listed.
      if (taken !== undefined) engine.add(flushed, taken);
      flushed = files.length;
    };

    if (start.facts.kind === 'file') {
      files.push(start.relPath);
      const slash = start.realRel.lastIndexOf('/');
      const dirId = sandbox.parentIdOf(start);
      if (dirId !== undefined) {
        gathering.add({
          inPersona: start.inPersona,
          dirRealRel: slash === -1 ? '' : start.realRel.slice(0, slash),
          dirId,
          name: start.realRel.slice(slash + 1),
        });
      }
    } else if (start.facts.kind === 'directory') {
      const prefix = start.relPath === '' ? 0 : start.relPath.length + 1;
      const pattern = args.file_pattern;
      const matches =
        pattern === undefined ? undefined : picomatch(pattern, { dot: true, basename: !pattern.includes('/') });
      const walked = await sandbox.walk(start, {
        recursive: true,
        includeHidden: false,
        // Both engines search exactly the files this walk picks (ripgrep runs with --no-ignore on
        // the list), so this one switch serves both; the deny-list below still applies.
        includeIgnored: args.include_ignored,
        signal: ctx.signal,
        visit: (entry) => {
          if (entry.kind !== 'file') return 'continue';
          if (matches !== undefined && !matches(entry.relPath.slice(prefix))) return 'continue';
          // Secrets (.env, keys) are never read, so never searched either.
          if (sandbox.denyList.deniesRead(entry.relPath)) return 'continue';
          if (gathering.switchesRoot(entry)) flush();
          files.push(entry.relPath);
          gathering.add(entry);
          if (gathering.size >= engine.batchFiles) flush();
          return 'continue';
        },
      });
      if (!walked.ok) return walked;
    } else {
      return err('not_a_file', `'${start.display}' is not a file or folder that can be searched.`);
    }
    if (flushed < files.length) flush();

    let done: BatchResult[];
    try {
      done = await engine.finish();
    } catch (error) {
      if (ctx.signal.aborted) return err('aborted', 'The search was stopped.');
      throw error;
    }
    const described: (FileMatches & { file: string; order: number })[] = [];
    let skippedBinary = 0;
    let total = 0;
    let filesWithMatches = 0;
    for (const { offset, result } of done) {
      skippedBinary += result.binary;
      for (let i = 1; i < result.counts.length; i += 2) total += result.counts[i]!;
      filesWithMatches += result.counts.length / 2;
      for (const file of result.files)
        described.push({ ...file, file: files[offset + file.index]!, order: offset + file.index });
    }
    described.sort((a, b) => a.order - b.order);

    const results: SearchResult[] = [];
    for (const file of described) {
      for (const hit of file.hits) {
        if (results.length === args.max_results) break;
        results.push({
          file: file.file,
          line: hit.line,
          column: hit.column,
          text: hit.text,
          ...(args.context_lines > 0 ? { context: { before: hit.before, after: hit.after } } : {}),
        });
      }
    }
    const truncated = total > results.length;
    return ok({
      query: args.query,
      results,
      total_matches: total,
      files_with_matches: filesWithMatches,
      truncated,
      searched_files: files.length,
      skipped_binary: skippedBinary,
      engine: engine.name,
      ...(truncated
        ? {
            notice: `[Showing ${results.length} of ${total} matching lines. Narrow the search with path or file_pattern, or raise max_results (up to 1000).]`,
          }
        : {}),
    });
  },
});
