import type { StaleEntry } from '../../domain/search/ngram/ngram-service';
import { ripgrepWalk } from '../../platform/search-engines/ripgrep-walk';
import { isPersonaPath, personaEntries } from '../../platform/disk/workspace-sandbox';
import type { ResolvedPath } from '../../platform/disk/workspace-sandbox';
import type { ToolEnvironment } from '../kit/tool-environment';
import { hasHiddenSegment, walkEntryOf, walkOrder } from './search-index-engine';

/** The files a search_in_code walk would have searched that can match, found by ripgrep's own walk. */
export interface RipgrepWalked {
  /** Candidates confirmed through the sandbox, in the walk's order: the JS engine reads them. */
  readonly files: readonly StaleEntry[];
  /** Files searched: ripgrep's count, and the persona overlay's files. */
  readonly searched: number;
}

/**
 * search_in_code's faster first search (issue 28 item 4): where ripgrep runs confined to the
 * workspace, it walks the folders itself (ripgrep-walk.ts) instead of being handed the list the
 * sandbox's walk made, and names the files with a match. Each is then confirmed as the walk would
 * have found it: resolved again through the sandbox by name without following a final link
 * (concealed and deny-listed names refused there), reached through no linked folder, no hidden
 * name on its way, not git-ignored, not a shadowed persona name; the JS engine then reads the
 * confirmed ones through the sandbox like any file (a second hard link is refused there), so what
 * ripgrep read counts for nothing. The persona overlay, which ripgrep does not see where the
 * assistant does, is looked at through the sandbox.
 *
 * Undefined where this does not apply (no confinement, a start folder the walk treats apart: the
 * persona folder, a linked or ignored one) or ripgrep's answer may be incomplete: the caller walks.
 */
export async function ripgrepWalkedFiles(
  env: ToolEnvironment,
  rg: string,
  patternArgs: readonly string[],
  start: ResolvedPath,
  includeIgnored: boolean,
  accept: (relPath: string) => boolean,
  signal: AbortSignal,
): Promise<RipgrepWalked | undefined> {
  const { sandbox } = env;
  const base = start.relPath;
  if (start.facts?.kind !== 'directory' || start.inPersona || start.realRel !== base) return undefined;
  if ((base !== '' && isPersonaPath(base)) || sandbox.isIgnored(start)) return undefined;
  const root = sandbox.anchorOf(false);
  if (root === undefined) return undefined;
  const answer = await ripgrepWalk(
    rg,
    patternArgs,
    { fd: root.dir.fd, path: root.dir.path, mode: root.mode },
    {
      start: base,
      includeIgnored,
      // The project's own persona names at the root are shadowed by the persona folder's.
      exclude: base === '' && sandbox.overlayActive ? personaEntries.map((name) => `/${name}`) : [],
      confinement: env.confinementFor('ripgrep'),
    },
    signal,
  );
  if (answer === undefined) return undefined;

  const files: StaleEntry[] = [];
  const seen = new Set<string>();
  let personaFiles = 0;
  const take = (entry: StaleEntry) => {
    if (seen.has(entry.relPath) || !accept(entry.relPath)) return;
    seen.add(entry.relPath);
    files.push(entry);
  };
  // Reached through a linked folder (a walk enters none), or ignored: not in a walk.
  const walkable = (found: ResolvedPath, path: string) =>
    (found.inPersona || found.realRel === path) && (includeIgnored || !sandbox.isIgnored(found));

  for (const path of answer.matched) {
    if (isPersonaPath(path) || hasHiddenSegment(path) || !accept(path)) continue;
    const resolved = await sandbox.resolve(path, 'read', { followFinal: false });
    if (!resolved.ok || resolved.value.facts?.kind !== 'file' || resolved.value.inPersona) continue;
    if (!walkable(resolved.value, path)) continue;
    const entry = walkEntryOf(sandbox, resolved.value);
    if (entry !== undefined) take(entry);
  }
  // The persona overlay's root entries (concealed ones refused by resolve): all searched, by the JS engine.
  if (base === '') {
    let names: readonly string[] = personaEntries;
    if (!sandbox.overlayActive) {
      // No overlay: they are the folder's own entries, spelled as they are on disk.
      const listed = sandbox.listDir(start);
      names = listed.ok ? listed.value.map((entry) => entry.name).filter((name) => isPersonaPath(name)) : [];
    }
    for (const name of names) {
      const resolved = await sandbox.resolve(name, 'read', { followFinal: false });
      if (!resolved.ok || resolved.value.facts === undefined || !walkable(resolved.value, name)) continue;
      const found = resolved.value;
      if (found.facts!.kind === 'file') {
        const entry = walkEntryOf(sandbox, found);
        personaFiles += 1;
        if (entry !== undefined) take(entry);
      } else if (found.facts!.kind === 'directory') {
        const walked = await sandbox.walk(found, {
          recursive: true,
          includeHidden: false,
          includeIgnored,
          signal,
          visit: (entry) => {
            if (entry.kind !== 'file') return 'continue';
            personaFiles += 1;
            take(entry);
            return 'continue';
          },
        });
        if (!walked.ok) return undefined;
      }
    }
  }
  files.sort((a, b) => walkOrder(a.relPath, b.relPath));
  return { files, searched: answer.searched + personaFiles };
}
