/**
 * What a tool may use besides its arguments. Built per call by the registry, so it always reflects
 * the current workspace and memory switch. Tools reach the disk only through what is here.
 */
export interface ToolEnvironment {
  /** Real (symlink-resolved) absolute path of the workspace root. */
  readonly workspaceRoot: string;
  /**
   * Real absolute path of the folder holding SOUL.md, USER.md, MEMORY.md and memory/ (the Familiar
   * home's workspace). Those four names at the workspace root resolve here whatever folder is open,
   * so a project folder is never polluted with persona files.
   */
  readonly personaDir: string;
  /**
   * True for workspace-relative paths the assistant must not see right now (USER.md, MEMORY.md and
   * memory/ while memory is off). The registry refuses direct access to them before a tool runs;
   * tools that enumerate (list, search) must skip them so their names and contents never leak.
   */
  readonly isConcealed: (relativePath: string) => boolean;
}
