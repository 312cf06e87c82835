import type { WorkspaceIndexes } from '../../domain/search/workspace-indexes';
import type { NgramIndexes } from '../../domain/search/ngram/ngram-indexes';
import type { ForegroundGate } from '../../platform/search-engines/foreground-gate';
import type { TransferService } from '../../domain/transfers/transfer-service';
import type { FsWorkerPool } from '../../platform/search-engines/fs-worker-pool';
import type { PathLocks } from '../../platform/disk/path-locks';
import type { RecoveryStore } from '../../platform/recovery/recovery-stores';
import type { WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import type { CodeIntelligence } from '../../domain/lsp/code-intelligence';
import type { ConfinementRules } from '../../platform/processes/launch-types';
import type { ProcessKind } from '../../platform/processes/process-rules';
import type { AllowedHost } from '../../../shared/settings';
import type { SkillShelf } from '../../domain/skills/skill-shelf';
import type { ReadTracker } from './read-tracker';
import type { WebAccess } from '../web/web-access';
import type { ToolLimits } from './tool-limits';

/**
 * What a tool may use besides its arguments. Built per call by the tool-call pipeline (createToolEnvironment in
 * tool-services.ts), so it always reflects the current workspace and memory switch. Tools reach the
 * disk only through what is here.
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
   * memory/ while memory is off). The tool-call pipeline refuses direct access to them before a tool runs;
   * tools that enumerate (list, search) must skip them so their names and contents never leak.
   */
  readonly isConcealed: (relativePath: string) => boolean;
  /** The one way to a path: resolveInWorkspace with the overlay, concealment, deny-list and symlink checks. */
  readonly sandbox: WorkspaceSandbox;
  readonly limits: ToolLimits;
  /** Per-conversation fingerprints of what the assistant read (stale-file protection). */
  readonly readTracker: ReadTracker;
  /** Serializes writes per file. */
  readonly locks: PathLocks;
  /** Previous versions of overwritten files, in the Familiar home. */
  readonly backups: RecoveryStore;
  /** Deleted files and folders, in the Familiar home. */
  readonly trash: RecoveryStore;
  /** Worker threads for search and big listings. */
  readonly workers: FsWorkerPool;
  /** ripgrep's executable when search_in_code may use it (on PATH, not turned off); else the JS engine. */
  readonly ripgrep?: string | undefined;
  /** The semantic-search index of the open workspace (file_semantic_search). */
  readonly searchIndexes?: WorkspaceIndexes;
  /**
   * search_in_code's trigram index of each workspace, and whether to use it (settings:
   * search.index, read per call). Without them search_in_code always scans.
   */
  readonly ngramIndexes?: NgramIndexes;
  readonly searchIndexEnabled?: () => boolean;
  /** Tool calls hold it while they run; index work in the background waits meanwhile (issue 32 item 1). */
  readonly foreground?: ForegroundGate;
  /** Offers files to the user and receives uploads (file_download, file_upload). */
  readonly transfers?: TransferService;
  /** Language servers of the open workspace (code_* tools, diagnostics after write_file / edit_file). */
  readonly code?: CodeIntelligence;
  /** Agent Skills (the skill tool): found through the sandbox, read-only. */
  readonly skills?: SkillShelf;
  /**
   * Environment variables the user chose to hand to child processes beyond the allow-list
   * (settings: commands.passEnvironment). Read at each start: the setting may change meanwhile.
   */
  passEnvironment(): readonly string[];
  /**
   * What a process of this kind may touch (process-rules.ts), for this workspace and the memory
   * switch as it is for this call: every process a tool starts is confined by these rules.
   */
  confinementFor(kind: ProcessKind): Omit<ConfinementRules, 'cwd'>;
  /** Hosts a confined command may reach without asking (settings: commands.allowedHosts), read at each request. */
  allowedHosts(): readonly AllowedHost[];
  /** Keeps a host allowed from now on (the answer "always in this workspace"). */
  rememberHost(entry: AllowedHost): Promise<void>;
  /** web_fetch's way out: the transport, name resolution and the allowed hosts (settings web.allowedHosts). */
  readonly web: WebAccess;
}
