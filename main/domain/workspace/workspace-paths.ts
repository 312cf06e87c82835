import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { AnchorRoots } from '../../platform/disk/anchor-roots';
import { createDenyList } from '../../platform/disk/deny-list';
import { parseWorkspacePath } from '../../platform/disk/path-syntax';
import { personaEntries } from '../../platform/disk/persona-names';
import { createWorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import type { ResolvedPath, WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';

export { isPersonaPath } from '../../platform/disk/persona-names';

/**
 * The persona overlay: these names at the workspace root live in the persona folder (the Familiar
 * home's workspace) whatever folder is open, and shadow a project's own files of the same name.
 */
export const personaEntryNames: readonly string[] = personaEntries;

export interface WorkspaceRoots {
  /** Real (symlink-resolved) absolute path of the open workspace. */
  readonly root: string;
  /** Real absolute path of the folder holding the persona files. */
  readonly personaDir: string;
  /** Familiar's home: nothing in it shows in the tree but the persona folder. */
  readonly home?: string;
  /** The folders held open by descriptor, shared with the tools' sandbox. */
  readonly anchors: AnchorRoots;
}

/** True when the overlay applies: the open folder is not the persona folder itself. */
export const hasPersonaOverlay = (roots: Pick<WorkspaceRoots, 'root' | 'personaDir'>): boolean =>
  roots.root !== roots.personaDir;

/** Syntax only: the tools' own check, with '' (the tree's name for the root) accepted. */
export const parseRelativePath = (raw: string): Result<string> => (raw === '' ? ok('') : parseWorkspacePath(raw));

// The user's own view: no deny-list (they may look at their .env), no memory concealment, hard
// links shown (the refusal protects the assistant's answers, not the user's own eyes).
const userDenyList = createDenyList([]);

/** The sandbox as the user sees the workspace (tree, viewer, watcher): same anchored lookups. */
export const userView = (roots: WorkspaceRoots): WorkspaceSandbox =>
  createWorkspaceSandbox({
    workspaceRoot: roots.root,
    personaDir: roots.personaDir,
    roots: roots.anchors,
    ...(roots.home === undefined ? {} : { protectedDirs: [roots.home] }),
    isConcealed: () => false,
    denyList: userDenyList,
    hardLinks: 'allow',
  });

/**
 * THE path check of the workspace view (tree, viewer, watcher): the tools' sandbox resolver (syntax,
 * persona overlay, the anchored walk), answering file_not_found for what is not there.
 */
export async function resolveWorkspacePath(
  roots: WorkspaceRoots,
  raw: string,
  options: { readonly followFinal?: boolean } = {},
): Promise<Result<ResolvedPath>> {
  const parsed = parseRelativePath(raw);
  if (!parsed.ok) return parsed;
  const resolved = await userView(roots).resolve(parsed.value === '' ? '.' : parsed.value, 'read', options);
  if (!resolved.ok) return resolved;
  if (resolved.value.facts === undefined) return err('file_not_found', `'${resolved.value.display}' does not exist.`);
  return resolved;
}
