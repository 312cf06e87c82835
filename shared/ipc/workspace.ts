import { z } from 'zod';
import { defineCall } from './define';

/**
 * The user's view of the workspace folder: the tree, a read-only file viewer and choosing another
 * folder. Paths are workspace-relative with '/' separators ('' is the root), confined to the
 * workspace exactly like the assistant's file tools; SOUL.md, USER.md, MEMORY.md and memory/ at the
 * root are the persona overlay and live in the Familiar home whatever folder is open.
 */

/** Largest file the viewer opens: a viewer, not an editor for logs of gigabytes. */
export const MAX_VIEWED_FILE_BYTES = 2 * 1024 * 1024;
/** A folder lists at most this many entries (the rest is counted, not sent). */
export const MAX_LISTED_ENTRIES = 50_000;

export const workspacePathSchema = z.string().max(4096);

export const workspaceEntrySchema = z.object({
  name: z.string(),
  /** Workspace-relative, '/'-separated. */
  path: z.string(),
  /** What it is, following a symbolic link that stays inside the workspace. */
  type: z.enum(['file', 'directory', 'other']),
  /** The entry is a symbolic link (type says what it points to; 'other' when it leads nowhere usable). */
  link: z.boolean(),
  /** Bytes, for files; 0 otherwise. */
  size: z.number().int().nonnegative(),
  /** Matched by a .gitignore (or is .git itself): the tree dims or hides it. */
  ignored: z.boolean(),
  /** Part of the persona overlay: lives in the Familiar home, not in the open folder. */
  persona: z.boolean(),
});
export type WorkspaceEntry = z.infer<typeof workspaceEntrySchema>;

export const workspaceListingSchema = z.object({
  path: z.string(),
  /** Directories first, then by name (see compareWorkspaceEntries). */
  entries: z.array(workspaceEntrySchema),
  /** Entries left out beyond MAX_LISTED_ENTRIES. */
  omitted: z.number().int().nonnegative(),
});
export type WorkspaceListing = z.infer<typeof workspaceListingSchema>;

export const workspaceFileSchema = z.object({
  path: z.string(),
  text: z.string(),
  size: z.number().int().nonnegative(),
});
export type WorkspaceFile = z.infer<typeof workspaceFileSchema>;

/** One batch of what changed on disk in folders the tree has listed, whoever changed it. */
export const workspaceChangesSchema = z.object({
  /** The real workspace root the batch belongs to: a page still showing another folder ignores it. */
  root: z.string(),
  added: z.array(workspaceEntrySchema),
  changed: z.array(workspaceEntrySchema),
  removed: z.array(z.string()),
  /** Folders to list again: too many changes to send one by one, or a .gitignore changed. */
  reload: z.array(z.string()),
});
export type WorkspaceChanges = z.infer<typeof workspaceChangesSchema>;

export const workspaceCalls = {
  /** Lists one folder and keeps watching it: later changes arrive as workspace.changed. */
  'workspace.listDir': defineCall(z.object({ path: workspacePathSchema }).strict(), workspaceListingSchema),
  /** UTF-8 text up to MAX_VIEWED_FILE_BYTES: file_too_large, binary_file, encoding_error otherwise. */
  'workspace.readFile': defineCall(z.object({ path: workspacePathSchema }).strict(), workspaceFileSchema),
  /** Opens another folder (an absolute path the user chose) as the workspace and remembers it. */
  'workspace.open': defineCall(
    z.object({ path: z.string().trim().min(1).max(4096) }).strict(),
    z.object({ path: z.string() }),
  ),
  /**
   * Desktop app: the native folder dialog, then opens the folder chosen; path null when the user
   * cancelled. Browser mode has no dialog (not_found): the page asks for a typed path instead.
   */
  'workspace.chooseFolder': defineCall(z.object({}).strict(), z.object({ path: z.string().nullable() })),
};

/** The semantic-search index of the open workspace while it builds (main: domain/search/index-status.ts). */
export const searchIndexStatusSchema = z.object({
  root: z.string(),
  state: z.enum(['idle', 'scanning', 'embedding', 'ready']),
  files: z.number().int().nonnegative(),
  filesFound: z.number().int().nonnegative(),
  filesChecked: z.number().int().nonnegative(),
  filesRead: z.number().int().nonnegative(),
  vectors: z
    .object({ model: z.string(), embedded: z.number().int().nonnegative(), chunks: z.number().int().nonnegative() })
    .optional(),
  embeddingError: z.string().optional(),
});
export type SearchIndexStatus = z.infer<typeof searchIndexStatusSchema>;

export const workspaceEvents = {
  /** The search index's progress (a status line while it builds; at most a few per second). */
  'workspace.searchIndex': searchIndexStatusSchema,
  'workspace.changed': workspaceChangesSchema,
  /** Another folder became the workspace: every listing of the previous one is stale. */
  'workspace.opened': z.object({ path: z.string() }),
};

const nameCollator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** The tree's order, shared so main's listings and the page's live inserts agree. */
export function compareWorkspaceEntries(a: WorkspaceEntry, b: WorkspaceEntry): number {
  if ((a.type === 'directory') !== (b.type === 'directory')) return a.type === 'directory' ? -1 : 1;
  return nameCollator.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}
