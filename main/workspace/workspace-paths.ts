import { realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';

/**
 * The persona overlay: these names at the workspace root live in the persona folder (the Familiar
 * home's workspace) whatever folder is open, and shadow a project's own files of the same name.
 */
export const personaEntryNames: readonly string[] = ['SOUL.md', 'USER.md', 'MEMORY.md', 'memory'];

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

export const isPersonaPath = (relPath: string): boolean => personaEntryNames.includes(relPath.split('/', 1)[0] ?? '');

/** True when `path` is `base` or below it; whole segments, never a string prefix. */
export function isInsideDir(base: string, path: string): boolean {
  const rel = relative(base, path);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}

/** Syntax only: refuses what can never be inside the workspace, before any disk access. */
export function parseRelativePath(raw: string): Result<string> {
  if (raw.includes('\0')) return err('invalid_path', 'The path contains a NUL byte.');
  if (raw.startsWith('/') || raw.startsWith('\\') || /^[A-Za-z]:/.test(raw)) {
    return err('invalid_path', `'${raw}' is absolute; workspace paths are relative to the workspace folder.`);
  }
  const kept: string[] = [];
  for (const segment of raw.replaceAll('\\', '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') return err('invalid_path', `'${raw}' steps out with '..'; paths stay inside the workspace.`);
    kept.push(segment);
  }
  return ok(kept.join('/'));
}

/**
 * THE path check of the workspace view (tree, viewer, watcher): syntax, persona overlay, then the
 * real location (symlinks followed) must stay inside the real root it belongs to. One function on
 * purpose: when main/sandbox/ lands, its resolver replaces this body and nothing else changes.
 */
export async function resolveWorkspacePath(roots: WorkspaceRoots, raw: string): Promise<Result<WorkspaceLocation>> {
  const parsed = parseRelativePath(raw);
  if (!parsed.ok) return parsed;
  const relPath = parsed.value;
  const inPersona = hasPersonaOverlay(roots) && isPersonaPath(relPath);
  const base = inPersona ? roots.personaDir : roots.root;
  let real: string;
  try {
    real = await realpath(relPath === '' ? base : join(base, ...relPath.split('/')));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return err('file_not_found', `'${relPath}' does not exist.`);
    if (code === 'ELOOP') return err('invalid_path', `'${relPath}' is a loop of symbolic links.`);
    if (code === 'EACCES' || code === 'EPERM') return err('permission_denied', `'${relPath}' cannot be read.`);
    throw error;
  }
  if (!isInsideDir(base, real)) {
    return err('permission_denied', `'${relPath}' leads outside the workspace through a symbolic link.`);
  }
  return ok({ relPath, real, inPersona });
}

/** Where a normalized workspace path would be, overlay applied, before symlinks are followed. */
export function lexicalLocation(roots: WorkspaceRoots, relPath: string): { abs: string; base: string } {
  const base = hasPersonaOverlay(roots) && isPersonaPath(relPath) ? roots.personaDir : roots.root;
  return { abs: relPath === '' ? base : join(base, ...relPath.split('/')), base };
}
