import { homedir } from 'node:os';
import { readlinkSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { appFolders, homeToolchains } from './confinement';
import type { ConfinementRules } from './launch-types';
import { readableHomeEntries } from './home-entries';
import { isInside } from '../disk/anchored-resolve';

/**
 * What each kind of process Familiar starts may touch, written once (issue 28). A command may write
 * the workspace; git only reads it and writes its own `.git` (hooks and config excepted); language
 * servers and ripgrep only read it, a language server keeping its caches in a scratch home of its
 * own. None of them sees Familiar's home, the rest of the user's home or the network; all of them
 * see the system read-only, and the toolchains (ripgrep only the one it comes from).
 * Persona files and git's control files are never writable from a process: persona edits go
 * through the diff approval, never a shell.
 */
export interface HostFolders {
  /** The open workspace (real absolute path). */
  readonly workspaceRoot: string;
  /** The persona folder (SOUL.md, USER.md, MEMORY.md, memory/): inside Familiar's home. */
  readonly personaDir: string;
  /** Familiar's own data: settings, secrets, audit, transcripts, backups. */
  readonly familiarHome: string;
  /** The user's home (default: os.homedir()). */
  readonly userHome?: string;
  /** Memory is on for this call: USER.md, MEMORY.md and memory/ are visible (read-only); off: hidden. */
  readonly memoryOn: boolean;
  /**
   * Extra folders under the home the user made readable (settings: commands.readableInHome), home-relative;
   * one that leads to a secret, Familiar's data or the persona folder is left out (home-entries.ts).
   */
  readonly readableInHome?: readonly string[];
  /**
   * Agent Skills folders outside the workspace (~/.agents/skills, the Familiar home's skills/): a
   * command reads them, never writes, so a skill's scripts run through run_command (issue 31).
   */
  readonly skillFolders?: readonly string[];
  /**
   * The ripgrep a search runs (its path as started): of the toolchains and app folders a command
   * sees again in the hidden trees, ripgrep sees only those its path goes through (~/.cargo for
   * ~/.cargo/bin/rg, the app for its own, none for /usr/bin/rg).
   */
  readonly ripgrep?: string;
}

export type ProcessKind = 'command' | 'git' | 'ripgrep' | 'language-server';

/** The persona names at a folder's root: the assistant's persona, never a process's to change. */
const personaFiles = ['SOUL.md', 'HEARTBEAT.md'];
const memoryEntries = ['USER.md', 'MEMORY.md', 'memory'];
/**
 * Files inside a workspace that make a later program run something (git hooks, fsmonitor in
 * .git/config, a workspace's MCP servers, editor tasks): read-only to every process.
 */
const sensitiveEntries = ['.git/hooks', '.git/config', '.gitmodules', '.mcp.json', '.vscode', '.idea', '.envrc'];

/**
 * The skill folders a command may read (real paths). One that holds the user's home, Familiar's
 * data or the persona folder is left out, and inside Familiar's data only its skills/ folder itself
 * (a skills folder made a symlink to somewhere else in there shows nothing).
 */
function skillFoldersOf(folders: HostFolders, home: string): string[] {
  const guarded = [home, folders.familiarHome, folders.personaDir];
  return (folders.skillFolders ?? []).filter(
    (dir) =>
      !guarded.some((folder) => isInside(dir, folder)) &&
      (!isInside(folders.familiarHome, dir) || dir === join(folders.familiarHome, 'skills')),
  );
}

/**
 * The paths a program started by `path` goes through: its name, each link's target in turn, and the
 * file it ends at (a link from ~/.local/bin to ~/.cargo/bin, an asdf shim in ~/.asdf/shims).
 */
function programPaths(path: string): string[] {
  const paths = [path];
  let at = path;
  for (let hop = 0; hop < 16; hop += 1) {
    let target: string;
    try {
      target = readlinkSync(at);
    } catch {
      break; // not a link (or gone): the end of the chain
    }
    at = resolve(dirname(at), target);
    paths.push(at);
  }
  try {
    paths.push(realpathSync(path));
  } catch {
    // Gone: the launch fails and says so.
  }
  return paths;
}

/** Of `shown`, the folders that hold a path `program` goes through (none without a program). */
function holding(program: string | undefined, shown: readonly string[]): string[] {
  if (program === undefined) return [];
  const paths = programPaths(program);
  return shown.filter((folder) => paths.some((path) => isInside(folder, path)));
}

export function rulesFor(kind: ProcessKind, folders: HostFolders): Omit<ConfinementRules, 'cwd'> {
  const home = folders.userHome ?? homedir();
  const roots = [...new Set([folders.workspaceRoot, folders.personaDir])];
  const under = (names: readonly string[]) => roots.flatMap((root) => names.map((name) => join(root, name)));
  const memory = under(memoryEntries);
  const writesWorkspace = kind === 'command';
  // What a process sees again inside the hidden trees: the toolchains, folders the user made
  // readable, the app's own (never the home itself, Familiar's home or the persona folder).
  const shown = [
    ...homeToolchains(home),
    ...readableHomeEntries(home, folders.readableInHome ?? [], {
      folders: [folders.familiarHome, folders.personaDir],
      workspaceRoot: folders.workspaceRoot,
    }),
    ...appFolders(),
  ];
  return {
    // git writes its objects, index and refs: only inside the workspace's .git.
    writable: writesWorkspace ? [folders.workspaceRoot] : kind === 'git' ? [join(folders.workspaceRoot, '.git')] : [],
    // A command also reads the Agent Skills folders outside the workspace: a skill's scripts run so.
    readable: writesWorkspace ? skillFoldersOf(folders, home) : [folders.workspaceRoot],
    readOnly: [...under(personaFiles), ...under(sensitiveEntries), ...(folders.memoryOn ? memory : [])],
    hidden: folders.memoryOn ? [] : memory,
    hiddenTrees: [home, folders.familiarHome],
    // A language server keeps caches in its home (tsserver's typings, gopls' module cache): it gets
    // an empty private one that goes with it, never the user's.
    ...(kind === 'language-server' ? { scratchTrees: [home] } : {}),
    // ripgrep runs nothing and reads only the workspace: of those it needs only the one it is in
    // (each folder shown is one more mount at every search's start: twelve cost ~3 ms).
    readableInHidden: kind === 'ripgrep' ? holding(folders.ripgrep, shown) : shown,
  };
}

/** What the user granted one MCP server beyond the defaults (settings: mcp.servers[].grants). */
export interface McpServerGrant {
  /** Its own folder under Familiar's home, kept between starts: the one place it always writes. */
  readonly dataDir: string;
  /** The workspace is writable (default: read-only). */
  readonly writeWorkspace: boolean;
}

/**
 * A user's MCP server (issue 29): it reads the workspace (writes it only when granted), writes its
 * own data folder, keeps caches in an empty private home that goes with it, and never sees
 * Familiar's home, the persona or memory files (whatever the memory switch says: no persona text
 * reaches a server), nor the rest of the user's home. The network is the proxy's business.
 */
export function mcpServerRules(folders: HostFolders, grant: McpServerGrant): Omit<ConfinementRules, 'cwd'> {
  const base = rulesFor(grant.writeWorkspace ? 'command' : 'language-server', { ...folders, memoryOn: false });
  const home = folders.userHome ?? homedir();
  return {
    ...base,
    writable: [...base.writable, grant.dataDir],
    scratchTrees: [home],
  };
}
