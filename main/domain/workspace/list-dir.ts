import { compareWorkspaceEntries, MAX_LISTED_ENTRIES } from '../../../shared/ipc/workspace';
import type { WorkspaceEntry, WorkspaceListing } from '../../../shared/ipc/workspace';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { EntryFacts, WorkspaceSandbox } from '../../platform/sandbox/workspace-sandbox';
import type { EntryIgnoreTest, IgnoreOracle } from './gitignore';
import { hasPersonaOverlay, isPersonaPath, parseRelativePath, personaEntryNames, userView } from './workspace-paths';
import type { WorkspaceRoots } from './workspace-paths';

const joinRel = (parent: string, name: string) => (parent === '' ? name : `${parent}/${name}`);

const typeOf = (facts: EntryFacts): WorkspaceEntry['type'] =>
  facts.kind === 'directory' ? 'directory' : facts.kind === 'file' ? 'file' : 'other';

function entryOf(relPath: string, own: EntryFacts, target: EntryFacts | undefined, ignored: EntryIgnoreTest) {
  const type = target === undefined ? 'other' : typeOf(target);
  const name = relPath.slice(relPath.lastIndexOf('/') + 1);
  const persona = isPersonaPath(relPath);
  return {
    name,
    path: relPath,
    type,
    link: own.kind === 'symlink',
    size: type === 'file' && target !== undefined ? target.size : 0,
    ignored: !persona && ignored(name, type === 'directory'),
    persona,
  } satisfies WorkspaceEntry;
}

/** Where a symlink in the tree leads: followed through the sandbox, so only while it stays inside. */
async function targetOf(view: WorkspaceSandbox, relPath: string): Promise<EntryFacts | undefined> {
  const followed = await view.resolve(relPath, 'read');
  return followed.ok ? followed.value.facts : undefined;
}

/**
 * One entry as the tree shows it. A symbolic link is followed only while its target stays inside
 * the workspace; otherwise it is shown as 'other' and cannot be opened.
 */
export async function describeEntry(
  roots: WorkspaceRoots,
  relPath: string,
  ignored: EntryIgnoreTest,
): Promise<WorkspaceEntry | null> {
  const view = userView(roots);
  const own = await view.resolve(relPath, 'read', { followFinal: false });
  if (!own.ok || own.value.facts === undefined) return null;
  const facts = own.value.facts;
  return entryOf(relPath, facts, facts.kind === 'symlink' ? await targetOf(view, relPath) : facts, ignored);
}

/**
 * Lists one folder of the workspace for the tree, through the folder's descriptor. At the root the
 * persona overlay replaces any SOUL.md, USER.md, MEMORY.md and memory/ of the open folder with the
 * Familiar home's ones.
 */
export async function listWorkspaceDir(
  roots: WorkspaceRoots,
  oracle: IgnoreOracle,
  raw: string,
): Promise<Result<WorkspaceListing>> {
  const parsed = parseRelativePath(raw);
  if (!parsed.ok) return parsed;
  const view = userView(roots);
  const location = await view.resolve(parsed.value === '' ? '.' : parsed.value, 'read');
  if (!location.ok) return location;
  const { relPath, facts } = location.value;
  if (facts === undefined) return err('file_not_found', `'${relPath}' does not exist.`);
  if (facts.kind !== 'directory') return err('not_a_directory', `'${relPath}' is a file, not a folder.`);
  const listed = view.listDir(location.value, true);
  if (!listed.ok) return listed;
  const overlay = relPath === '' && hasPersonaOverlay(roots);
  const own = overlay ? listed.value.filter((entry) => !personaEntryNames.includes(entry.name)) : listed.value;
  const kept = own.slice(0, MAX_LISTED_ENTRIES);
  const ignored = await oracle.testerFor(relPath);
  const described: (WorkspaceEntry | null)[] = [];
  for (const entry of kept) {
    const path = joinRel(relPath, entry.name);
    if (entry.facts === undefined) described.push(null);
    else if (entry.facts.kind === 'symlink')
      described.push(entryOf(path, entry.facts, await targetOf(view, path), ignored));
    else described.push(entryOf(path, entry.facts, entry.facts, ignored));
  }
  if (overlay) {
    for (const name of personaEntryNames) described.push(await describeEntry(roots, name, ignored));
  }
  const entries = described.filter((entry): entry is WorkspaceEntry => entry !== null).sort(compareWorkspaceEntries);
  return ok({ path: relPath, entries, omitted: own.length - kept.length });
}
