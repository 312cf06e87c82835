import { compareWorkspaceEntries, MAX_LISTED_ENTRIES } from '../../../shared/ipc/workspace';
import type { WorkspaceEntry, WorkspaceListing } from '../../../shared/ipc/workspace';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { EntryFacts, EntryKind, WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import { isPersonaPath, parseRelativePath, userView } from './workspace-paths';
import type { WalkEntry } from '../../platform/disk/workspace-walker';
import type { WorkspaceRoots } from './workspace-paths';

const typeOf = (kind: EntryKind | undefined): WorkspaceEntry['type'] =>
  kind === 'directory' ? 'directory' : kind === 'file' ? 'file' : 'other';

/** `target`: what the entry is (a link's target when it stays inside), undefined when unknown. */
function entryOf(
  relPath: string,
  link: boolean,
  target: Pick<EntryFacts, 'kind' | 'size'> | undefined,
  ignored: boolean,
) {
  const type = typeOf(target?.kind);
  const name = relPath.slice(relPath.lastIndexOf('/') + 1);
  const persona = isPersonaPath(relPath);
  return {
    name,
    path: relPath,
    type,
    link,
    size: type === 'file' && target !== undefined ? target.size : 0,
    ignored: !persona && ignored,
    persona,
  } satisfies WorkspaceEntry;
}

/** Where a symlink in the tree leads: followed through the sandbox, so only while it stays inside. */
async function targetOf(view: WorkspaceSandbox, relPath: string): Promise<EntryFacts | undefined> {
  const followed = await view.resolve(relPath, 'read');
  return followed.ok ? followed.value.facts : undefined;
}

/**
 * One entry as the tree shows it (a change the watcher reported). A symbolic link is followed only
 * while its target stays inside the workspace; otherwise it is shown as 'other' and cannot be opened.
 * Ignored as the tools' walks judge it: the sandbox's one ignore engine.
 */
export async function describeEntry(roots: WorkspaceRoots, relPath: string): Promise<WorkspaceEntry | null> {
  const view = userView(roots);
  const own = await view.resolve(relPath, 'read', { followFinal: false });
  if (!own.ok || own.value.facts === undefined) return null;
  const facts = own.value.facts;
  const target = facts.kind === 'symlink' ? await targetOf(view, relPath) : facts;
  return entryOf(relPath, facts.kind === 'symlink', target, view.isIgnored(own.value));
}

/** A walked entry as the tree shows it: folders need no stat, files carry the walk's lstat. */
async function describeWalked(view: WorkspaceSandbox, entry: WalkEntry): Promise<WorkspaceEntry | null> {
  if (entry.kind === 'directory') return entryOf(entry.relPath, false, { kind: 'directory', size: 0 }, entry.ignored);
  if (entry.facts === undefined) return null; // gone since the folder was read
  const target = entry.facts.kind === 'symlink' ? await targetOf(view, entry.relPath) : entry.facts;
  return entryOf(entry.relPath, entry.facts.kind === 'symlink', target, entry.ignored);
}

/**
 * Lists one folder of the workspace for the tree with the tools' walker (descriptor-anchored, the
 * persona overlay at the root, Familiar's own folders left out), ignored entries included and
 * marked by the same ignore engine as list_files and search.
 */
export async function listWorkspaceDir(roots: WorkspaceRoots, raw: string): Promise<Result<WorkspaceListing>> {
  const parsed = parseRelativePath(raw);
  if (!parsed.ok) return parsed;
  const view = userView(roots);
  const location = await view.resolve(parsed.value === '' ? '.' : parsed.value, 'read');
  if (!location.ok) return location;
  const { relPath, facts } = location.value;
  if (facts === undefined) return err('file_not_found', `'${relPath}' does not exist.`);
  if (facts.kind !== 'directory') return err('not_a_directory', `'${relPath}' is a file, not a folder.`);
  const kept: WalkEntry[] = [];
  let seen = 0;
  const walked = await view.walk(location.value, {
    recursive: false,
    includeHidden: true,
    includeIgnored: true,
    withFacts: true,
    visit: (entry) => {
      seen += 1;
      if (kept.length < MAX_LISTED_ENTRIES) kept.push(entry);
      return 'continue';
    },
  });
  if (!walked.ok) return walked;
  const described = await Promise.all(kept.map((entry) => describeWalked(view, entry)));
  const entries = described.filter((entry): entry is WorkspaceEntry => entry !== null).sort(compareWorkspaceEntries);
  return ok({ path: relPath, entries, omitted: seen - kept.length });
}
