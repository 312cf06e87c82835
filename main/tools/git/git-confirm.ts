import type { ResolvedPath, WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';

/**
 * git reads the work tree by path, so a folder swapped for a symlink while it runs, or a file that
 * is a hard link to one outside, can put outside names into its answer. Every path git reports is
 * resolved again through the sandbox before it is shown, and dropped unless it is a workspace
 * entry the assistant may see:
 * - it leads outside (symlink_escape), into Familiar's data, or is hidden (concealed, deny-listed);
 * - it is a regular file with several hard links (while the settings refuse those);
 * - it is a persona name the overlay sends to the persona folder (not the file git looked at);
 * - `mustExist` (untracked files) and nothing is there.
 * A tracked path that is gone is kept (that is what "deleted" reports).
 */
export async function confirmGitPath(
  sandbox: WorkspaceSandbox,
  path: string,
  mustExist: boolean,
): Promise<ResolvedPath | 'gone' | undefined> {
  // A backslash is a separator to the sandbox but part of a name to git on POSIX: not the same file.
  if (process.platform !== 'win32' && path.includes('\\')) return undefined;
  const found = await sandbox.resolve(path, 'read', { followFinal: false });
  if (!found.ok) {
    const gone = found.error.code === 'file_not_found' || found.error.code === 'not_a_directory';
    return gone && !mustExist ? 'gone' : undefined;
  }
  const { facts, inPersona } = found.value;
  if (inPersona) return undefined;
  if (facts === undefined) return mustExist ? undefined : 'gone';
  if (facts.kind === 'file' && facts.nlink > 1 && sandbox.anchorOf(false)?.hardLinks !== 'allow') return undefined;
  return found.value;
}
