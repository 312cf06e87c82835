/**
 * The persona overlay: these names at the workspace root live in the persona folder whatever folder
 * is open, so a project is never polluted with Familiar's files (and a project's own root SOUL.md,
 * USER.md, MEMORY.md and memory/ are shadowed while it is open).
 */
export const personaEntries: readonly string[] = ['SOUL.md', 'USER.md', 'MEMORY.md', 'memory'];

/** The persona entry a root name stands for, ignoring case. */
export const personaEntryOf = (name: string): string | undefined =>
  personaEntries.find((entry) => entry.toLowerCase() === name.toLowerCase());

/** The first segment of a workspace-relative path names a persona entry. */
export const isPersonaPath = (relPath: string): boolean => personaEntryOf(relPath.split('/', 1)[0] ?? '') !== undefined;
