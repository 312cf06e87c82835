/**
 * The persona overlay: these names at the workspace root live in the persona folder whatever folder
 * is open, so a project is never polluted with Familiar's files (and a project's own root SOUL.md,
 * USER.md, MEMORY.md and memory/ are shadowed while it is open).
 */
export const personaEntries: readonly string[] = ['SOUL.md', 'USER.md', 'MEMORY.md', 'HEARTBEAT.md', 'memory'];

/** The persona entry a root name stands for, ignoring case. */
export const personaEntryOf = (name: string): string | undefined =>
  personaEntries.find((entry) => entry.toLowerCase() === name.toLowerCase());

const lowerPersonaEntries = new Set(personaEntries.map((entry) => entry.toLowerCase()));

/**
 * The first segment of a workspace-relative path names a persona entry (any case). A set lookup:
 * indexed searches ask it of every indexed path.
 */
export const isPersonaPath = (relPath: string): boolean => {
  const slash = relPath.indexOf('/');
  return lowerPersonaEntries.has((slash === -1 ? relPath : relPath.slice(0, slash)).toLowerCase());
};
