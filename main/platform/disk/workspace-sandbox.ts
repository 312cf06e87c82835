import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { AnchorRoots } from './anchor-roots';
import { isInside, resolveBeneath } from './anchored-resolve';
import type { AnchorRoot, IsProtected } from './anchored-resolve';
import { createDenyList } from './deny-list';
import type { DenyList } from './deny-list';
import { fsError } from './fs-errors';
import { displayPath, parseWorkspacePath } from './path-syntax';
import { isPersonaPath, personaEntryOf } from './persona-names';
import { createSandboxIo } from './sandbox-io';
import type { SandboxIo } from './sandbox-io';
import type { SandboxCore } from './sandbox-core';
import { factsOf } from './resolved-path';
import type { ResolvedPath } from './resolved-path';
import type { TempJournal } from './temp-files';

export { personaEntries, personaEntryOf, isPersonaPath } from './persona-names';
export { factsOf } from './resolved-path';
export type { EntryFacts, EntryKind, ResolvedPath, RootName } from './resolved-path';

export interface SandboxOptions {
  /** Absolute workspace folder (its real path): messages and the overlay decision. */
  readonly workspaceRoot: string;
  /** Absolute persona folder. */
  readonly personaDir: string;
  /** Where the two folders are held open. */
  readonly roots: AnchorRoots;
  /** Familiar's own folders (its data home): never entered, whatever name leads there. */
  readonly protectedDirs?: readonly string[];
  readonly isConcealed: (relPath: string) => boolean;
  readonly denyList?: DenyList | undefined;
  /** 'refuse' (default): a regular file with several hard links is not read (see SECURITY.md). */
  readonly hardLinks?: 'refuse' | 'allow';
  /** Records temp files while they exist, so a crash leaves none behind for long. */
  readonly tempJournal?: TempJournal;
}

export interface ResolveOptions {
  /** false: operate on a final symlink itself (delete, move, info) instead of its target. */
  readonly followFinal?: boolean;
}

export interface WorkspaceSandbox extends SandboxIo {
  readonly workspaceRoot: string;
  readonly personaDir: string;
  readonly denyList: DenyList;
  readonly isConcealed: (relPath: string) => boolean;
  /** True when the open folder is not the persona folder itself (the overlay applies). */
  readonly overlayActive: boolean;
  /**
   * The one path-resolution function every tool goes through: syntax, persona overlay, memory
   * concealment, deny-list, then the anchored walk (symlinks followed only while they stay inside;
   * one that leaves answers symlink_escape), Familiar's own data refused.
   */
  resolve(raw: string, access: 'read' | 'write', options?: ResolveOptions): Promise<Result<ResolvedPath>>;
  /** The same sandbox with nothing concealed (an index built once for both states of the memory switch). */
  unconcealed(): WorkspaceSandbox;
}

export const concealedMessage = (display: string) =>
  `'${display}' is hidden because the user switched memory off. Do not try to reach it another way; ` +
  'if you need it, ask the user to switch memory on.';

/** Identities (dev:ino) of folders no walk may enter. */
function protectedIdentities(roots: AnchorRoots, dirs: readonly string[]): IsProtected {
  const ids = new Set<string>();
  for (const dir of dirs) {
    const root = roots.get(dir);
    if (root !== undefined) ids.add(`${root.dir.dev}:${root.dir.ino}`);
  }
  return (dev, ino) => ids.size > 0 && ids.has(`${dev}:${ino}`);
}

export function createWorkspaceSandbox(options: SandboxOptions): WorkspaceSandbox {
  const { workspaceRoot, personaDir, isConcealed, roots } = options;
  const denyList = options.denyList ?? createDenyList();
  const overlayActive = workspaceRoot !== personaDir;
  const personaHint = overlayActive
    ? ' Persona files are reached only as SOUL.md, USER.md, MEMORY.md and memory/ at the workspace root.'
    : '';
  // The persona folder is protected too when it shows up inside the workspace under another name.
  const isProtected = protectedIdentities(roots, [
    ...(options.protectedDirs ?? []),
    ...(overlayActive ? [personaDir] : []),
  ]);

  // Case-insensitive, as the policy is: 'soul.md' and 'Memory/x.md' name the persona entries (on
  // macOS and Windows they ARE the project's SOUL.md): spell them as the persona folder does.
  const canonicalName = (relPath: string): string => {
    if (!overlayActive) return relPath;
    const first = relPath.split('/', 1)[0] ?? '';
    const entry = personaEntryOf(first);
    return entry === undefined ? relPath : entry + relPath.slice(first.length);
  };

  const rootFor = (inPersona: boolean): AnchorRoot | undefined => roots.get(inPersona ? personaDir : workspaceRoot);
  // A workspace opened inside Familiar's own data (its home, not the persona folder) shows nothing.
  const workspaceIsFamiliarData =
    overlayActive &&
    !isInside(personaDir, workspaceRoot) &&
    (options.protectedDirs ?? []).some((dir) => isInside(dir, workspaceRoot));

  const core: SandboxCore = {
    anchored: roots.anchored,
    isProtected,
    hardLinks: options.hardLinks ?? 'refuse',
    tempJournal: options.tempJournal,
    overlayActive,
    isConcealed,
    rootOf: (path) => rootFor(path.inPersona),
  };

  // Checks one name (as asked, or where a symlink really leads) against concealment and the deny-list.
  const admit = (relPath: string, access: 'read' | 'write'): Result<void> => {
    if (relPath !== '' && isConcealed(relPath)) return err('permission_denied', concealedMessage(relPath));
    return denyList.check(relPath, access);
  };

  function resolveNow(raw: string, access: 'read' | 'write', resolveOptions: ResolveOptions): Result<ResolvedPath> {
    const parsed = parseWorkspacePath(raw);
    if (!parsed.ok) return parsed;
    const relPath = canonicalName(parsed.value);
    const display = displayPath(relPath);
    const admitted = admit(relPath, access);
    if (!admitted.ok) return admitted;
    const inPersona = overlayActive && isPersonaPath(relPath);
    if (!inPersona && workspaceIsFamiliarData) {
      return err(
        'permission_denied',
        `'${display}' is in Familiar's own data, which tools do not touch.${personaHint}`,
      );
    }
    const root = rootFor(inPersona);
    if (root === undefined) {
      return err('file_not_found', `The folder holding '${display}' does not exist (it was moved or deleted).`);
    }
    try {
      const found = resolveBeneath(core.anchored, root, relPath, resolveOptions.followFinal ?? true, isProtected);
      switch (found.kind) {
        case 'escape':
          return err(
            'symlink_escape',
            `'${display}' leads outside the workspace through the symbolic link '${found.link}'; tools stay inside the workspace folder.`,
            { link: found.link },
          );
        case 'loop':
          return err('invalid_path', `'${display}' is a symbolic link loop.`);
        case 'parent_not_directory':
          return err('not_a_directory', `A parent of '${display}' ('${found.at}') is a file, not a folder.`);
        case 'protected':
          return err(
            'permission_denied',
            `'${display}' leads into Familiar's own data, which tools do not touch.${personaHint}`,
          );
        case 'found':
          break;
      }
      const { realRel } = found;
      if (realRel !== relPath) {
        // Another name for a persona file would slip past the policy that guards SOUL.md: refuse it.
        if (!inPersona && overlayActive && isPersonaPath(realRel)) {
          return err('permission_denied', `'${display}' leads to a persona file.${personaHint}`);
        }
        const admittedReal = admit(realRel, access);
        if (!admittedReal.ok) return admittedReal;
      }
      return ok({
        relPath,
        display,
        inPersona,
        realRel,
        key: `${inPersona ? 'persona' : 'workspace'}:${realRel}`,
        facts: found.stats && factsOf(found.stats),
      });
    } catch (error) {
      // EACCES on a parent folder, a folder swapped for a link mid-walk: an answer, not a crash.
      return fsError<ResolvedPath>(error, display);
    }
  }

  return {
    workspaceRoot,
    personaDir,
    denyList,
    isConcealed,
    overlayActive,
    resolve: (raw, access, resolveOptions = {}) => Promise.resolve(resolveNow(raw, access, resolveOptions)),
    unconcealed: () => createWorkspaceSandbox({ ...options, isConcealed: () => false }),
    ...createSandboxIo(core),
  };
}
