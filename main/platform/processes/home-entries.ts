import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { homeEntrySchema, homeSecretEntries } from '../../../shared/settings';

/** What an entry of the user's home must not show or sit inside, as the processes' rules hold it. */
export interface KeptHidden {
  /** Familiar's data and its persona folder: never readable through an entry, nor an entry inside them. */
  readonly folders: readonly string[];
  /** The workspace: already shown by the rules; an entry inside it is dropped (a command could swap it for a link). */
  readonly workspaceRoot: string;
}

const inside = (path: string, folder: string) => {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};
const overlap = (a: string, b: string) => inside(a, b) || inside(b, a);

/** The real path when it exists: an entry that is a link is bound as what it points to. */
const realPath = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/**
 * The user's additions to what a command may read of the home (settings: commands.readableInHome),
 * as absolute paths, leaving out any entry that is (or is a link to, or holds) a secret, Familiar's
 * data or its persona folder, or that lies inside the workspace. The settings schema refuses the
 * names already; this holds for where they really lead at the moment the process starts.
 */
export function readableHomeEntries(home: string, entries: readonly string[], kept: KeptHidden): string[] {
  const homes = [...new Set([home, realPath(home)])];
  const secrets = homes.flatMap((root) => homeSecretEntries.map((name) => join(root, ...name.split('/'))));
  const refused = [...secrets, ...kept.folders.flatMap((folder) => [folder, realPath(folder)])];
  const workspaces = [kept.workspaceRoot, realPath(kept.workspaceRoot)];
  return entries.flatMap((entry) => {
    const parsed = homeEntrySchema.safeParse(entry);
    if (!parsed.success) return [];
    const path = join(home, ...parsed.data.split('/'));
    const seen = [path, realPath(path)];
    const unsafe = seen.some(
      (candidate) =>
        refused.some((folder) => overlap(candidate, folder)) ||
        workspaces.some((workspace) => inside(candidate, workspace)),
    );
    return unsafe ? [] : [path];
  });
}
