import { z } from 'zod';
import type { ShownDiagnostic } from '../../domain/lsp/diagnostic-view';
import type { ShownLocation } from '../../domain/lsp/render-locations';

/**
 * Pieces of tool results that several tools share, as zod: each tool's `output` schema is built
 * from these, and MCP clients get them as JSON Schema (front-doors/mcp/tool-annotations.ts).
 * Typed against the interfaces the code already returns, so a drift fails to compile.
 */

/**
 * A sentence for the model, present only when there is something to say about the result: what
 * part was shown and how to get the rest (never a silent cut), why it is empty, what to try next.
 */
export const noticeSchema = z.string().exactOptional();

/** What a path is, as get_file_info, list_files, move_file and delete_file report it. */
export const entryTypeSchema = z.enum(['file', 'directory', 'symlink', 'other']);

/** A place outside the workspace (library typings): named by package and file only. */
export const outsideNameSchema = z.object({
  outside_workspace: z.literal(true),
  package: z.string().nullable(),
  file: z.string(),
});

export const shownLocationSchema: z.ZodType<ShownLocation> = z.union([
  z.object({
    path: z.string(),
    line: z.number().int(),
    column: z.number().int(),
    end_line: z.number().int(),
    end_column: z.number().int(),
    text: z.string().exactOptional(),
  }),
  outsideNameSchema,
]);

export const shownDiagnosticSchema: z.ZodType<ShownDiagnostic> = z.object({
  path: z.string(),
  severity: z.enum(['error', 'warning', 'info', 'hint']),
  line: z.number().int(),
  column: z.number().int(),
  end_line: z.number().int(),
  end_column: z.number().int(),
  message: z.string(),
  source: z.string().exactOptional(),
  code: z.union([z.string(), z.number()]).exactOptional(),
});

/** A passage found by file_semantic_search or memory_search. */
export const passageSchema = z.object({
  file: z.string(),
  start_line: z.number().int(),
  end_line: z.number().int(),
  heading: z.string().exactOptional(),
  score: z.number(),
  snippet: z.string(),
});

/** How git names a change (git_status, git_diff). */
export const changeKindSchema = z.enum([
  'modified',
  'added',
  'deleted',
  'renamed',
  'copied',
  'type_changed',
  'unmerged',
]);

/** What write_file and edit_file both report about the change they made, after their own facts. */
export const fileChangeFields = {
  bytes_written: z.number().int(),
  backup_path: z.string().exactOptional(),
  /** Problems the language server reports that this change introduced (present when a server runs for the file). */
  new_problems: z.array(shownDiagnosticSchema).exactOptional(),
};
