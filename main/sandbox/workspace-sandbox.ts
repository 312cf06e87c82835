import { lstat, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { createDenyList } from './deny-list';
import { fsError } from './fs-errors';
import type { DenyList } from './deny-list';
import { displayPath, parseWorkspacePath } from './path-syntax';
import { isInside, realLocation } from './real-location';

/**
 * The persona overlay: these names at the workspace root live in the persona folder whatever folder
 * is open, so a project is never polluted with Familiar's files (and a project's own root SOUL.md,
 * USER.md, MEMORY.md and memory/ are shadowed while it is open).
 */
export const personaEntries: readonly string[] = ['SOUL.md', 'USER.md', 'MEMORY.md', 'memory'];

/** The persona entry a root name stands for, ignoring case. */
export const personaEntryOf = (name: string): string | undefined =>
  personaEntries.find((entry) => entry.toLowerCase() === name.toLowerCase());

export type EntryKind = 'file' | 'directory' | 'symlink' | 'special';

export interface EntryFacts {
  readonly kind: EntryKind;
  readonly size: number;
  readonly mtimeMs: number;
  readonly mode: number;
  readonly ino: number;
}

export interface ResolvedPath {
  /** Normalized workspace-relative path as asked ('' = root). */
  readonly relPath: string;
  /** What to call it in messages ('.' for the root). */
  readonly display: string;
  /** True when the persona overlay sent it into the persona folder. */
  readonly inPersona: boolean;
  /** Absolute path before any symlink is followed. */
  readonly lexical: string;
  /** Where it really is; with followFinal:false a final symlink is the entry itself. */
  readonly real: string;
  /** The entry's facts, or undefined when nothing is there yet. */
  readonly facts: EntryFacts | undefined;
}

export interface SandboxOptions {
  /** Real absolute workspace root. */
  readonly workspaceRoot: string;
  /** Real absolute persona folder. */
  readonly personaDir: string;
  /** Familiar's data folder: nothing in it is reachable except through the persona overlay. */
  readonly protectedDir?: string | undefined;
  readonly isConcealed: (relPath: string) => boolean;
  readonly denyList?: DenyList | undefined;
}

export interface ResolveOptions {
  /** false: operate on a final symlink itself (delete, move, info) instead of its target. */
  readonly followFinal?: boolean;
}

export interface WorkspaceSandbox {
  readonly workspaceRoot: string;
  readonly personaDir: string;
  readonly denyList: DenyList;
  readonly isConcealed: (relPath: string) => boolean;
  /** Familiar's data folder when it lies inside the workspace: walks skip it. */
  readonly protectedDir: string | undefined;
  /**
   * The one path-resolution function every tool goes through: syntax, persona overlay, memory
   * concealment, deny-list, symlinks (real location must stay inside the real root), Familiar's own data.
   */
  resolve(raw: string, access: 'read' | 'write', options?: ResolveOptions): Promise<Result<ResolvedPath>>;
  /** Absolute location of a normalized workspace-relative path, with the overlay applied (no I/O). */
  locate(relPath: string): { readonly abs: string; readonly inPersona: boolean };
  /** The workspace-relative name of a real absolute path, or undefined when it is outside. */
  nameOf(real: string): string | undefined;
}

export const concealedMessage = (display: string) =>
  `'${display}' is hidden because the user switched memory off. Do not try to reach it another way; ` +
  'if you need it, ask the user to switch memory on.';

export function factsOf(stats: Stats): EntryFacts {
  const kind: EntryKind = stats.isFile()
    ? 'file'
    : stats.isDirectory()
      ? 'directory'
      : stats.isSymbolicLink()
        ? 'symlink'
        : 'special';
  return { kind, size: stats.size, mtimeMs: stats.mtimeMs, mode: stats.mode, ino: stats.ino };
}

const toPosix = (path: string) => (sep === '/' ? path : path.split(sep).join('/'));

export function createWorkspaceSandbox(options: SandboxOptions): WorkspaceSandbox {
  const { workspaceRoot, personaDir, isConcealed } = options;
  const denyList = options.denyList ?? createDenyList();
  const overlayActive = workspaceRoot !== personaDir;
  const personaHint = overlayActive
    ? ' Persona files are reached only as SOUL.md, USER.md, MEMORY.md and memory/ at the workspace root.'
    : '';

  // Case-insensitive, as the policy is: 'soul.md' and 'Memory/x.md' name the persona entries (on
  // macOS and Windows they ARE the project's SOUL.md): spell them as the persona folder does.
  const personaName = (relPath: string): string | undefined => {
    if (!overlayActive) return undefined;
    const first = relPath.split('/', 1)[0] ?? '';
    const entry = personaEntryOf(first);
    return entry === undefined ? undefined : entry + relPath.slice(first.length);
  };
  const canonicalName = (relPath: string): string => personaName(relPath) ?? relPath;

  const locate = (relPath: string) => {
    const persona = personaName(relPath);
    if (persona !== undefined) return { abs: join(personaDir, persona), inPersona: true };
    return { abs: relPath === '' ? workspaceRoot : join(workspaceRoot, relPath), inPersona: false };
  };

  const nameOf = (real: string): string | undefined => {
    if (isInside(personaDir, real)) {
      const rel = toPosix(relative(personaDir, real));
      const first = rel.split('/', 1)[0] ?? '';
      if (!overlayActive || personaEntries.includes(first)) return rel;
    }
    if (!isInside(workspaceRoot, real)) return undefined;
    const rel = toPosix(relative(workspaceRoot, real));
    // With the overlay on, the project's own root SOUL.md (etc.) has no name: it is shadowed.
    const first = rel.split('/', 1)[0] ?? '';
    return overlayActive && personaEntryOf(first) !== undefined ? undefined : rel;
  };

  // Checks one name (as asked, or where a symlink really leads) against concealment and the deny-list.
  const admit = (relPath: string, access: 'read' | 'write'): Result<void> => {
    if (relPath !== '' && isConcealed(relPath)) return err('permission_denied', concealedMessage(relPath));
    return denyList.check(relPath, access);
  };

  async function resolve(raw: string, access: 'read' | 'write', resolveOptions: ResolveOptions = {}) {
    const parsed = parseWorkspacePath(raw);
    if (!parsed.ok) return parsed;
    const relPath = canonicalName(parsed.value);
    const display = displayPath(relPath);
    const admitted = admit(relPath, access);
    if (!admitted.ok) return admitted;
    try {
      return await resolveOnDisk(relPath, display, access, resolveOptions);
    } catch (error) {
      // EACCES on a parent folder and the like: an answer for the model, not a crash.
      return fsError<ResolvedPath>(error, display);
    }
  }

  async function resolveOnDisk(
    relPath: string,
    display: string,
    access: 'read' | 'write',
    resolveOptions: ResolveOptions,
  ): Promise<Result<ResolvedPath>> {
    const { abs: lexical, inPersona } = locate(relPath);
    const followFinal = resolveOptions.followFinal ?? true;
    const base = inPersona ? personaDir : workspaceRoot;
    const target = followFinal || lexical === base ? lexical : dirname(lexical);
    const location = await realLocation(target);
    if (location.kind === 'loop') return err<ResolvedPath>('invalid_path', `'${display}' is a symbolic link loop.`);
    if (location.kind === 'parent_not_directory') {
      return err<ResolvedPath>('not_a_directory', `A parent of '${display}' is a file, not a folder.`);
    }
    const real = target === lexical ? location.real : join(location.real, basename(lexical));

    if (!isInside(base, real)) {
      return err<ResolvedPath>(
        'permission_denied',
        `'${display}' leads outside the workspace through a symbolic link; tools stay inside the workspace folder.`,
      );
    }
    const realName = nameOf(real);
    const inFamiliarData =
      options.protectedDir !== undefined && isInside(options.protectedDir, real) && !isInside(personaDir, real);
    if (realName === undefined || inFamiliarData) {
      return err<ResolvedPath>(
        'permission_denied',
        `'${display}' leads into Familiar's own data, which tools do not touch.${personaHint}`,
      );
    }
    if (realName !== relPath) {
      // Another name for a persona file would slip past the policy that guards SOUL.md: refuse it.
      if (overlayActive && personaEntryOf(realName.split('/', 1)[0] ?? '') !== undefined) {
        return err<ResolvedPath>('permission_denied', `'${display}' leads to a persona file.${personaHint}`);
      }
      const admittedReal = admit(realName, access);
      if (!admittedReal.ok) return admittedReal;
    }

    const stats = await (followFinal ? stat(real) : lstat(real)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
      throw error;
    });
    return ok<ResolvedPath>({ relPath, display, inPersona, lexical, real, facts: stats && factsOf(stats) });
  }

  return {
    workspaceRoot,
    personaDir,
    denyList,
    isConcealed,
    protectedDir: options.protectedDir,
    resolve,
    locate,
    nameOf,
  };
}

/**
 * The last check before a file is replaced: the folder it goes into still really is where the
 * sandbox resolved it (no symlink swapped in for a parent since). Narrows check-then-use races.
 */
export async function parentUnchanged(real: string): Promise<boolean> {
  const parent = dirname(real);
  const location = await realLocation(parent);
  return location.kind === 'found' && location.exists && location.real === parent;
}
