import { isAbsolute, relative, sep } from 'node:path';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { createDenyList } from '../sandbox/deny-list';
import { parseWorkspacePath } from '../sandbox/path-syntax';
import { createWorkspaceSandbox, personaEntries, personaEntryOf } from '../sandbox/workspace-sandbox';

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
}

export interface WorkspaceLocation {
  /** Normalized workspace-relative path, '/'-separated; '' is the root. */
  readonly relPath: string;
  /** Where it really is on disk, symlinks resolved. */
  readonly real: string;
  /** The overlay sent it into the persona folder. */
  readonly inPersona: boolean;
}

/** True when the overlay applies: the open folder is not the persona folder itself. */
export const hasPersonaOverlay = (roots: WorkspaceRoots): boolean => roots.root !== roots.personaDir;

export const isPersonaPath = (relPath: string): boolean => personaEntryOf(relPath.split('/', 1)[0] ?? '') !== undefined;

/** True when `path` is `base` or below it; whole segments, never a string prefix. */
export function isInsideDir(base: string, path: string): boolean {
  const rel = relative(base, path);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}

/** Syntax only: the tools' own check, with '' (the tree's name for the root) accepted. */
export const parseRelativePath = (raw: string): Result<string> => (raw === '' ? ok('') : parseWorkspacePath(raw));

// The user's own view: no deny-list (they may look at their .env), no memory concealment.
const userDenyList = createDenyList([]);
const userView = (roots: WorkspaceRoots) =>
  createWorkspaceSandbox({
    workspaceRoot: roots.root,
    personaDir: roots.personaDir,
    isConcealed: () => false,
    denyList: userDenyList,
  });

/**
 * THE path check of the workspace view (tree, viewer, watcher): the tools' sandbox resolver (syntax,
 * persona overlay, real location inside the real root), answering file_not_found for what is not there.
 */
export async function resolveWorkspacePath(roots: WorkspaceRoots, raw: string): Promise<Result<WorkspaceLocation>> {
  const parsed = parseRelativePath(raw);
  if (!parsed.ok) return parsed;
  const resolved = await userView(roots).resolve(parsed.value === '' ? '.' : parsed.value, 'read');
  if (!resolved.ok) return resolved;
  const { relPath, real, inPersona, facts } = resolved.value;
  if (facts === undefined) return err('file_not_found', `'${resolved.value.display}' does not exist.`);
  return ok({ relPath, real, inPersona });
}

/** Where a normalized workspace path would be, overlay applied, before symlinks are followed. */
export function lexicalLocation(roots: WorkspaceRoots, relPath: string): { abs: string; base: string } {
  const { abs, inPersona } = userView(roots).locate(relPath);
  return { abs, base: inPersona ? roots.personaDir : roots.root };
}
