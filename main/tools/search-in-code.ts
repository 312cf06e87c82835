import picomatch from 'picomatch';
import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import type { FileMatches } from '../platform/search-engines/search-types';
import { ripgrepPatternArgs } from '../platform/search-engines/ripgrep-pattern';
import { ripgrepCanWalk } from '../platform/search-engines/ripgrep-walk';
import { noticeSchema } from './kit/output-shapes';
import { defineTool, onGivenPath } from './define-tool';
import { createJsEngine } from './search/search-js-engine';
import type { BatchResult, SearchEngine } from './search/search-js-engine';
import { createRipgrepEngine } from './search/search-ripgrep-engine';
import { walkFedRipgrepEngine } from './search/walk-fed-engine';
import type { WalkFedEngine } from './search/walk-fed-engine';
import { WalkBatches } from './search/walk-batches';
import { ripgrepWalkedFiles } from './search/search-ripgrep-walk';
import { compileQuery } from './search/search-query';
import { indexedWalk, walkEntryOf } from './search/search-index-engine';
import { RESULT_HEADROOM_CHARS } from './kit/result-bound';
import type { StaleEntry } from '../domain/search/ngram/ngram-service';
import { wholeNumberWithin } from './kit/input-shapes';

const input = z.object({
  query: z.string().min(1).describe('Text to find (or a JavaScript regular expression with is_regex).'),
  is_regex: z.boolean().default(false),
  path: z.string().default('.').describe("Folder or file to search, relative to the workspace root (default '.')."),
  file_pattern: z.string().min(1).optional().describe("Glob for the files to search, e.g. '*.ts' or 'src/**/*.py'."),
  case_sensitive: z.boolean().default(false),
  context_lines: wholeNumberWithin(0, 10, 0).describe('Lines of context before and after each match.'),
  max_results: wholeNumberWithin(1, 1000, 100),
  include_ignored: z
    .boolean()
    .default(false)
    .describe('Also search git-ignored files and node_modules, e.g. to look into a dependency (default false).'),
});

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const searchInCodeOutput = z.object({
  query: z.string(),
  results: z.array(
    z.object({
      file: z.string().describe('Workspace-relative path of the file.'),
      line: z.number().int(),
      column: z.number().int(),
      text: z.string(),
      context: z.object({ before: z.array(z.string()), after: z.array(z.string()) }).exactOptional(),
    }),
  ),
  /** Matching lines in all searched files (results are capped by max_results). */
  total_matches: z.number().int(),
  files_with_matches: z.number().int(),
  truncated: z.boolean(),
  searched_files: z.number().int(),
  /**
   * Binary files skipped (a NUL byte in their first 8 KB). With ripgrep, only those in which the
   * query matched: ripgrep does not report files without a match.
   */
  skipped_binary: z.number().int(),
  /**
   * Who searched: ripgrep (on PATH), Familiar's own engine in worker threads, or the trigram index
   * (candidate files picked by the index, confirmed by one of the other two).
   */
  engine: z.enum(['ripgrep', 'js', 'index']),
  /**
   * Who stood in for Familiar's walk of the folders: `ripgrep` walked them itself, confined to the
   * workspace, and the files it found with a match were confirmed and read through the sandbox;
   * `index`: the trigram index's own file list, while its change watcher vouched for it (the paths
   * the watcher heard about looked at through the sandbox). Absent: Familiar's walk listed the files.
   */
  walk: z.enum(['ripgrep', 'index']).exactOptional(),
  /**
   * The trigram index: ready (then `candidates`: the files the matcher read, of searched_files), or
   * still loading / building (the search scanned meanwhile).
   */
  index: z
    .object({
      state: z.enum(['idle', 'loading', 'building', 'ready', 'failed']),
      files: z.number().int(),
      walked: z.number().int(),
      candidates: z.number().int().exactOptional(),
    })
    .exactOptional(),
  notice: noticeSchema,
});
/** The result type is the schema's: the two cannot drift apart (they once did, over `engine`). */
export type SearchInCodeOutput = z.output<typeof searchInCodeOutput>;
export type SearchResult = SearchInCodeOutput['results'][number];

/**
 * ripgrep's walk found at most this many candidate files, or this many bytes of them: the JS engine
 * reads them all. Beyond, the walk's own counts stand for the files not described (checked first,
 * a few files' worth of reads each); here describing up to max_results lines reads most of them anyway.
 * The bytes tell only when the walk learned the sizes: it does not look them up when ripgrep named
 * more than jsCandidates files (sizesUpTo), unless it opened them (a literal's, up to 1,024).
 */
const jsCandidates = 256;
const jsCandidateBytes = 4 << 20;
/**
 * A literal's candidates up to this many bytes are read in this thread (a few tens of ms), not
 * by the worker threads: starting one costs about as much, and the main thread would only wait.
 */
const inProcessBytes = 2 << 20;
/** The JS engine's batches of the index's candidates: at least this many bytes (or its 256 files). */
const MIN_BATCH_BYTES = 1 << 20;

/** A long search says how far its walk is every this many files (MCP progress notifications). */
const progressEvery = 256;

export const searchInCodeTool = defineTool({
  name: 'search_in_code',
  description:
    'Search the text of the files in a folder (or one file): one result per matching line, with file, line, column, text and optional context. ' +
    'Case-insensitive unless case_sensitive; literal unless is_regex. Honours .gitignore, skips binary files, hidden files, .git and node_modules (include_ignored searches ignored files and node_modules too). ' +
    'Reports total_matches and truncated when more than max_results matched.',
  input,
  output: searchInCodeOutput,
  operations: ['read'],
  returnsContent: true,
  access: onGivenPath('read'),
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

    // --- engine selection (issue 16 item 4: the trigram index picks candidate files when ready) ---
    const query = { text: args.query, isRegex: args.is_regex, caseSensitive: args.case_sensitive };
    // ripgrep when it is on PATH and the query means the same to it; else the JS engine. With the
    // index, a few candidates go to the JS engine (no process start), many to ripgrep.
    const patternArgs = ctx.env.ripgrep === undefined ? undefined : ripgrepPatternArgs(spec.value);
    const prefix = start.relPath === '' ? 0 : start.relPath.length + 1;
    const pattern = args.file_pattern;
    // ripgrep may walk the folders itself (confined to the workspace): no file_pattern (its globs
    // are not ripgrep's), a folder to search.
    const canWalk =
      patternArgs !== undefined &&
      ctx.env.ripgrep !== undefined &&
      pattern === undefined &&
      start.facts.kind === 'directory' &&
      ripgrepCanWalk();
    const isLiteral = spec.value.mode === 'bytes' || spec.value.mode === 'nocase';
    const {
      walk: indexed,
      status: indexStatus,
      vouch,
    } = await indexedWalk(ctx.env, query, spec.value, args.include_ignored, canWalk);
    const matches =
      pattern === undefined ? undefined : picomatch(pattern, { dot: true, basename: !pattern.includes('/') });
    // Secrets (.env, keys) are never read, so never searched either.
    const accept = (relPath: string) =>
      (matches === undefined || matches(relPath.slice(prefix))) && !sandbox.denyList.deniesRead(relPath);
    // Without the index, where ripgrep runs confined to the workspace, it walks the folders itself
    // and proposes the files with a match; those confirmed through the sandbox go to the JS engine
    // (issue 28 item 4). A file_pattern keeps the sandbox's walk: its globs are not ripgrep's.
    const anchorOf = (inPersona: boolean) => sandbox.anchorOf(inPersona);
    /** Many candidates: the ripgrep engine, made when ripgrep is done, checks their counts as they are confirmed. */
    let streamed: WalkFedEngine | undefined;
    const ripgrepWalk =
      !canWalk || patternArgs === undefined || ctx.env.ripgrep === undefined || indexed !== undefined
        ? ok(undefined)
        : await ripgrepWalkedFiles(
            ctx.env,
            ctx.env.ripgrep,
            patternArgs,
            start,
            args.include_ignored,
            accept,
            ctx.signal,
            {
              // While ripgrep walks: how many files with a match it named so far.
              onMatched: (count) => ctx.progress?.(count, undefined, `${count} files with a match found`),
              // A literal's candidates may be read in this thread: the walk that confirms them opens them.
              openCandidates: isLiteral,
              // A regex's candidates are read by the file threads: they start while the walk
              // confirms the candidates. Started alongside ripgrep, which takes every core, they
              // slowed it by about as much as they saved. A literal's are most often read here
              // (below), and threads started for nothing slowed that read by 50-100 ms.
              onNamed: () => {
                if (!isLiteral) workers.warm();
              },
              streamTo: (named, startedAt) => {
                // More than the JS engine takes: the counts ripgrep made stand (see below), checked
                // in the file threads while the walk confirms the rest (walkFedRipgrepEngine).
                if (named <= jsCandidates) return undefined;
                streamed = walkFedRipgrepEngine(
                  { rg: ctx.env.ripgrep!, patternArgs, workers, spec: spec.value, maxResults: args.max_results, named },
                  { signal: ctx.signal, startedAt, anchorOf },
                );
                return streamed.sink;
              },
              // More candidates than the JS engine takes: the count checks learn their sizes, in threads.
              sizesUpTo: jsCandidates,
              // The index gave way to ripgrep (many candidates): the files it and the change watcher
              // vouch for need no confirming walk, and their counts are checked by their ctime alone.
              ...(vouch === undefined ? {} : { vouch }),
            },
          );
    if (!ripgrepWalk.ok) {
      streamed?.stop();
      return ripgrepWalk;
    }
    const walkedByRipgrep = ripgrepWalk.value;
    // Many candidates: the counts ripgrep's walk made stand for the files still what it read, and
    // the JS engine describes the first.
    const fewCandidates =
      streamed === undefined &&
      walkedByRipgrep !== undefined &&
      (walkedByRipgrep.files.length <= jsCandidates || walkedByRipgrep.bytes <= jsCandidateBytes);
    const searchHere = fewCandidates && isLiteral && walkedByRipgrep.bytes <= inProcessBytes;
    // The walk's descriptors serve a read in this thread only (a worker could outlive this call).
    if (!searchHere) walkedByRipgrep?.closeOpened();
    // A literal's candidates not read here: the file threads start while their counts are checked.
    if (walkedByRipgrep !== undefined && isLiteral && !searchHere) workers.warm();
    const engine: SearchEngine =
      streamed?.engine ??
      (fewCandidates ||
      patternArgs === undefined ||
      ctx.env.ripgrep === undefined ||
      (indexed !== undefined && !indexed.broad)
        ? createJsEngine(workers, spec.value, args.max_results, ctx.signal, searchHere)
        : createRipgrepEngine(ctx.env.ripgrep, patternArgs, workers, spec.value, args.max_results, ctx.signal, {
            confinement: ctx.env.confinementFor('ripgrep'),
            ...(walkedByRipgrep === undefined ? {} : { walkCounts: walkedByRipgrep }),
          }));
    let skippedByIndex = 0;
    let binaryByIndex = 0;
    /** Who stood in for the walk (the answer's `walk`). */
    let walk: SearchInCodeOutput['walk'] = walkedByRipgrep === undefined ? undefined : 'ripgrep';
    // --- end of engine selection ---

    // Files in walk order: their workspace paths, and the batches the engine is given meanwhile.
    const batches = streamed?.batches ?? new WalkBatches(engine, anchorOf);
    const { files } = batches;

    if (start.facts.kind === 'file') {
      const entry = walkEntryOf(sandbox, start);
      if (entry === undefined) batches.listOnly(start.relPath);
      else batches.take(entry);
    } else if (start.facts.kind === 'directory') {
      // The JS engine's candidates whose sizes are known, shared out among the file workers by size
      // (WalkBatches.takeShared); ripgrep's batches stay as big as they are (a process start each); a
      // batch read in this thread is one.
      const takeShared = (entries: readonly StaleEntry[], sizes: readonly number[], opened?: Int32Array) => {
        const total = sizes.reduce((sum, size) => sum + size, 0);
        const share =
          engine.name === 'js' && !searchHere ? Math.max(MIN_BATCH_BYTES, total / (workers.size * 2)) : Infinity;
        batches.takeShared(entries, sizes, share, opened);
      };
      // The change watcher vouches for the index: its file list stands in for the walk (skipped then).
      const listed =
        walkedByRipgrep === undefined ? await indexed?.listed(start, accept, pattern === undefined) : undefined;
      if (walkedByRipgrep !== undefined) {
        // Read here: each descriptor goes with its file's batch, which closes it (AnchoredFiles.opened).
        const { opened } = walkedByRipgrep;
        if (streamed === undefined)
          takeShared(walkedByRipgrep.files, walkedByRipgrep.sizes, searchHere ? opened : undefined);
        opened.fill(-1);
      } else if (listed !== undefined) {
        walk = 'index';
        skippedByIndex = listed.skipped;
        binaryByIndex = listed.binary;
        takeShared(listed.files, listed.sizes);
      } else {
        // Without the watcher's list, the walk finds the files.
        const walked = await sandbox.walk(start, {
          recursive: true,
          includeHidden: false,
          // Both engines search exactly the files this walk picks (ripgrep runs with --no-ignore on
          // the list), so this one switch serves both; the deny-list below still applies.
          includeIgnored: args.include_ignored,
          signal: ctx.signal,
          withFacts: indexed !== undefined, // the index checks each file's size and ctime
          visit: (entry) => {
            if (entry.kind !== 'file' || !accept(entry.relPath)) return 'continue';
            const choice = indexed?.choose(entry) ?? 'search';
            if (choice !== 'search') {
              // Searched in effect: the index knows it cannot match (or is binary, as a scan would find).
              if (choice === 'skip') skippedByIndex += 1;
              else binaryByIndex += 1;
              return 'continue';
            }
            batches.take(entry);
            // While the walk goes on: how many files it found so far (the end says how many were searched).
            if (files.length % progressEvery === 0)
              ctx.progress?.(files.length, undefined, `${files.length} files found`);
            return 'continue';
          },
        });
        if (!walked.ok) return walked;
      }
    } else {
      return err('not_a_file', `'${start.display}' is not a file or folder that can be searched.`);
    }
    batches.finish();
    indexed?.finish();

    let done: BatchResult[];
    try {
      done = await engine.finish();
    } catch (error) {
      if (ctx.signal.aborted) return err('aborted', 'The search was stopped.');
      throw error;
    }
    // The end says how many were searched, the number the answer gives (searched_files).
    const searched = walkedByRipgrep?.searched ?? files.length + skippedByIndex + binaryByIndex;
    ctx.progress?.(searched, searched, `Searched ${searched} files`);
    const described: (FileMatches & { file: string; order: number })[] = [];
    let skippedBinary = binaryByIndex;
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
    // The answer stops below the result cap itself (1,000 long lines with context can pass it), so
    // it stays an object: the run stage would cut a longer one into text.
    let chars = RESULT_HEADROOM_CHARS;
    let sizeLimited = false;
    for (const file of described) {
      for (const hit of file.hits) {
        if (results.length === args.max_results || sizeLimited) break;
        const result: SearchResult = {
          file: file.file,
          line: hit.line,
          column: hit.column,
          text: hit.text,
          ...(args.context_lines > 0 ? { context: { before: hit.before, after: hit.after } } : {}),
        };
        chars += JSON.stringify(result).length + 1;
        if (chars > ctx.env.limits.maxResultChars) sizeLimited = true;
        else results.push(result);
      }
    }
    const truncated = total > results.length;
    return ok({
      query: args.query,
      results,
      total_matches: total,
      files_with_matches: filesWithMatches,
      truncated,
      searched_files: searched,
      skipped_binary: skippedBinary,
      engine: indexed !== undefined ? 'index' : walkedByRipgrep !== undefined ? 'ripgrep' : engine.name,
      ...(walk === undefined ? {} : { walk }),
      ...(indexStatus === undefined
        ? {}
        : {
            index: {
              state: indexStatus.state,
              files: indexStatus.files,
              walked: indexStatus.walked,
              ...(indexed === undefined ? {} : { candidates: files.length }),
            },
          }),
      ...(truncated
        ? {
            notice: sizeLimited
              ? `[Showing ${results.length} of ${total} matching lines: the answer's size limit. Narrow the search with path or file_pattern, or ask for fewer context_lines.]`
              : `[Showing ${results.length} of ${total} matching lines. Narrow the search with path or file_pattern, or raise max_results (up to 1000).]`,
          }
        : {}),
    });
  },
});
