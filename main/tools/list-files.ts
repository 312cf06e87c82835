import picomatch from 'picomatch';
import { z } from 'zod';
import { err, ok } from '../../shared/result';
import { statEntriesNow, statKinds } from '../platform/search-engines/in-process-jobs';
import type { StatRows } from '../platform/search-engines/in-process-jobs';
import { AnchoredBatch } from '../platform/disk/anchored-batch';
import type { EntryKind } from '../platform/disk/workspace-sandbox';
import { defineTool, onGivenPath } from './define-tool';
import { entryTypeSchema, noticeSchema } from './kit/output-shapes';
import { isPlainJsonText, jsonStringChars, RESULT_HEADROOM_CHARS, withResultBound } from './kit/result-bound';

const input = z.object({
  path: z.string().default('.').describe("Folder relative to the workspace root (default '.')."),
  recursive: z.boolean().default(false).describe('List sub-folders too (default false).'),
  pattern: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Glob to keep only matching entries, e.g. '*.ts' (matches names at any depth) or 'src/**/*.test.ts' (paths relative to `path`).",
    ),
  include_hidden: z.boolean().default(false).describe('Include names starting with a dot (default false).'),
  include_ignored: z
    .boolean()
    .default(false)
    .describe(
      'Include git-ignored entries, node_modules and .git (marked ignored: true), e.g. to look into a dependency (default false).',
    ),
  sizes: z
    .boolean()
    .optional()
    .describe(
      'Show file sizes (default: yes for one folder; no for recursive listings, which then cost no stat per entry).',
    ),
  max_entries: z.number().int().min(1).max(1_000_000).optional().describe('Most entries to return (default 500).'),
});

export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

export interface ListedEntry {
  readonly name: string;
  /** Workspace-relative: pass it to the other tools as is. */
  readonly path: string;
  readonly type: EntryType;
  /** Bytes, for files (and a symlink's own size), when sizes are shown. */
  readonly size?: number;
  /** Only with include_ignored: git (or the built-in rule for .git and node_modules) ignores it. */
  readonly ignored?: true;
}

/** Entries statted per worker task; smaller listings are statted in-process. */
const statBatch = 2048;

/** The result type is the output schema's (listFilesOutput, below): one source, so the two cannot drift. */
type ListFilesOutput = z.output<typeof listFilesOutput>;

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const listFilesOutput = z.object({
  path: z.string(),
  entries: z.array(
    z.object({
      name: z.string(),
      path: z.string().describe('Workspace-relative: pass it to the other tools as is.'),
      type: entryTypeSchema,
      size: z.number().int().exactOptional(),
      ignored: z.literal(true).exactOptional(),
    }),
  ),
  truncated: z.boolean(),
  notice: noticeSchema,
});

/** A long listing says how far it is every this many entries (MCP progress notifications). */
const progressEvery = 500;

/**
 * `{"name":`, `,"path":`, `,"type":`, the closing brace and the comma after the entry: its JSON
 * without the values.
 */
const entryFrameChars = 8 + 8 + 8 + 1 + 1;
const typeChars: Record<EntryType, number> = { file: 6, directory: 11, symlink: 9, other: 7 };
/** `,"size":` and at most 16 digits (Number.MAX_SAFE_INTEGER). */
const sizeChars = 8 + 16;
/** `,"ignored":true`. */
const ignoredChars = 15;

/**
 * An entry's characters in the JSON answer, at most: exact but for the size's digits (and the type,
 * when sizes are added: lstat may tell another kind than the walk did). `plain`: neither name nor
 * path has a character JSON escapes.
 */
function entryChars(
  name: string,
  relPath: string,
  plain: boolean,
  type: EntryType,
  ignored: boolean,
  sized: boolean,
): number {
  const strings = plain ? name.length + relPath.length + 4 : jsonStringChars(name) + jsonStringChars(relPath);
  return (
    strings +
    entryFrameChars +
    (sized ? typeChars.directory + sizeChars : typeChars[type]) +
    (ignored ? ignoredChars : 0)
  );
}

/** `{"path":…,"entries":[` … `],"truncated":false,"notice":…}` without the entries. */
const answerChars = (path: string, notice: string | undefined) =>
  8 + jsonStringChars(path) + 12 + 1 + 18 + (notice === undefined ? 0 : 10 + jsonStringChars(notice)) + 1;

export const listFilesTool = defineTool({
  name: 'list_files',
  description:
    'List a folder of the workspace: name, path, type and (for one folder, or with sizes) size of each entry, sorted by path. Honours .gitignore and skips .git and ' +
    'node_modules (list them by passing their path, or with include_ignored). recursive lists sub-folders depth-first; pattern filters by glob; capped by max_entries (default 500).',
  input,
  output: listFilesOutput,
  operations: ['read'],
  access: onGivenPath('read'),
  async run(args, ctx) {
    const { sandbox, limits, workers } = ctx.env;
    const resolved = await sandbox.resolve(args.path, 'read');
    if (!resolved.ok) return resolved;
    const start = resolved.value;
    if (start.facts === undefined) return err('file_not_found', `'${start.display}' does not exist.`);
    if (start.facts.kind !== 'directory') {
      return err(
        'not_a_directory',
        `'${start.display}' is a file, not a folder; use get_file_info or read_file on it.`,
      );
    }
    const maxEntries = Math.min(args.max_entries ?? limits.defaultListEntries, limits.maxListEntries);
    // The answer stops below the result cap itself, so it stays an object (the run stage would cut
    // a longer one into text, which MCP clients cannot check against the output schema).
    const charBudget = limits.maxResultChars - RESULT_HEADROOM_CHARS;
    let chars = 0;
    let plainFolder: object | undefined;
    const prefix = start.relPath === '' ? 0 : start.relPath.length + 1;
    const pattern = args.pattern;
    const matches =
      pattern === undefined ? undefined : picomatch(pattern, { dot: true, basename: !pattern.includes('/') });

    const withSizes = args.sizes ?? !args.recursive;
    const typeOf = (kind: EntryKind): EntryType => (kind === 'special' ? 'other' : kind);
    // Entries go straight into the answer as the walk finds them; only sizes need a second look.
    const entries: ListedEntry[] = [];
    // Folders have no size to show: only the other entries are statted, in batches, through the
    // folders the walk held (AnchoredBatch), so a name swapped since is not statted elsewhere.
    const statted: Promise<{ indices: number[]; rows: StatRows }>[] = [];
    const batch = new AnchoredBatch((inPersona) => sandbox.anchorOf(inPersona));
    let indices: number[] = [];
    let truncated = false;
    const take = () => {
      const files = batch.take();
      const taken = indices;
      indices = [];
      return files === undefined ? undefined : { files, indices: taken };
    };
    const flush = () => {
      // Stat in worker threads while the walk goes on: on big trees the stats are most of the cost.
      const next = take();
      if (next !== undefined)
        statted.push(workers.statEntries(next.files, ctx.signal).then((rows) => ({ indices: next.indices, rows })));
    };
    const walked = await sandbox.walk(start, {
      recursive: args.recursive,
      includeHidden: args.include_hidden,
      includeIgnored: args.include_ignored,
      signal: ctx.signal,
      visit: (entry) => {
        if (matches !== undefined && !matches(entry.relPath.slice(prefix))) return 'continue';
        const type = typeOf(entry.kind);
        const sized = withSizes && entry.kind !== 'directory';
        // The path is its folder's path and the name: the folder's part is tested once per folder
        // (its entries share one dirId object), the name every time.
        let plain = isPlainJsonText(entry.name);
        if (plain && entry.dirId !== plainFolder) {
          plain = isPlainJsonText(entry.relPath);
          if (plain) plainFolder = entry.dirId;
        }
        chars += entryChars(entry.name, entry.relPath, plain, type, entry.ignored, sized);
        if (entries.length === maxEntries || chars > charBudget) {
          truncated = true;
          return 'stop';
        }
        if (sized) {
          if (batch.switchesRoot(entry)) flush();
          batch.add(entry);
          indices.push(entries.length);
          if (batch.size >= statBatch) flush();
        }
        if (entries.length % progressEvery === 0 && entries.length > 0) {
          ctx.progress?.(entries.length, undefined, `${entries.length} entries listed`);
        }
        entries.push(
          entry.ignored
            ? { name: entry.name, path: entry.relPath, type, ignored: true }
            : { name: entry.name, path: entry.relPath, type },
        );
        return 'continue';
      },
    });
    if (!walked.ok) return walked;
    if (withSizes) await addSizes(entries, statted, take, flush);
    ctx.progress?.(entries.length, entries.length, `${entries.length} entries listed`);
    const notice = truncated
      ? entries.length === maxEntries
        ? `[Showing the first ${entries.length} entries. Narrow the listing with path or pattern, or raise max_entries.]`
        : `[Showing the first ${entries.length} entries: the answer's size limit. Narrow the listing with path or pattern.]`
      : entries.length === 0
        ? '[No entries (hidden and git-ignored names are not listed).]'
        : undefined;
    const answer: ListFilesOutput = {
      path: start.display,
      entries,
      truncated,
      ...(notice === undefined ? {} : { notice }),
    };
    // Counted as it was built: the run stage's cap need not stringify it to measure it.
    return ok(withResultBound(answer, chars + answerChars(start.display, notice)));
  },
});

/** Puts what lstat said (kind and size; nothing for an entry gone since the walk) into the entries. */
async function addSizes(
  entries: ListedEntry[],
  statted: Promise<{ indices: number[]; rows: StatRows }>[],
  take: () => { files: Parameters<typeof statEntriesNow>[0]; indices: number[] } | undefined,
  flush: () => void,
): Promise<void> {
  if (statted.length === 0) {
    // Small listings are statted right here: a worker round trip would cost more.
    const last = take();
    if (last !== undefined) statted.push(Promise.resolve({ indices: last.indices, rows: statEntriesNow(last.files) }));
  } else flush();
  for (const { indices, rows } of await Promise.all(statted)) {
    for (let i = 0; i * 2 < rows.length; i += 1) {
      const index = indices[i]!;
      const entry = entries[index]!;
      const code = rows[i * 2]!;
      if (code < 0) continue;
      const kind = statKinds[code] ?? 'special';
      const type: EntryType = kind === 'special' ? 'other' : kind;
      entries[index] = { ...entry, type, ...(type === 'directory' ? {} : { size: rows[i * 2 + 1]! }) };
    }
  }
}
