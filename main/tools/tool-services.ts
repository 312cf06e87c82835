import { createDenyList } from '../sandbox/deny-list';
import type { DenyList, DenyRule } from '../sandbox/deny-list';
import { createFsWorkerPool } from '../sandbox/fs-worker-pool';
import type { FsWorkerPool } from '../sandbox/fs-worker-pool';
import { createPathLocks } from '../sandbox/path-locks';
import type { PathLocks } from '../sandbox/path-locks';
import { realOrResolved } from '../sandbox/real-location';
import { createRecoveryStore } from '../sandbox/recovery-stores';
import { createWorkspaceSandbox } from '../sandbox/workspace-sandbox';
import { WorkspaceIndexes } from '../search/workspace-index';
import type { FamiliarPaths } from '../storage/paths';
import type { TransferService } from '../transfers/transfer-service';
import { join } from 'node:path';
import { createReadTracker } from './read-tracker';
import type { ReadTracker } from './read-tracker';
import type { ToolEnvironment } from './tool-environment';
import { resolveToolLimits } from './tool-limits';
import type { ToolLimits } from './tool-limits';

/** The long-lived parts every ToolEnvironment shares: create once per app (or per MCP server). */
export interface ToolServices {
  readonly paths: FamiliarPaths;
  readonly limits: ToolLimits;
  readonly denyList: DenyList;
  readonly readTracker: ReadTracker;
  readonly locks: PathLocks;
  readonly workers: FsWorkerPool;
  /** The open workspace's semantic-search index, saved under the Familiar home's search-index/. */
  readonly searchIndexes: WorkspaceIndexes;
  readonly transfers: TransferService | undefined;
  /** Ends the worker threads and the index watcher. */
  dispose(): Promise<void>;
}

export interface ToolServicesOptions {
  readonly paths: FamiliarPaths;
  readonly limits?: Partial<ToolLimits>;
  /** Default: .env*, *.pem, *.key, id_rsa* (all access) and .git/ (writes). */
  readonly denyRules?: readonly DenyRule[];
  /** Worker threads; default min(4, CPUs). */
  readonly workerThreads?: number;
  /** Downloads offered to the user and uploads received (the core wires its events in). */
  readonly transfers?: TransferService;
}

export function createToolServices(options: ToolServicesOptions): ToolServices {
  const workers = createFsWorkerPool(options.workerThreads === undefined ? {} : { size: options.workerThreads });
  const searchIndexes = new WorkspaceIndexes(join(options.paths.home, 'search-index'));
  return {
    paths: options.paths,
    limits: resolveToolLimits(options.limits),
    denyList: createDenyList(options.denyRules),
    readTracker: createReadTracker(),
    locks: createPathLocks(),
    workers,
    searchIndexes,
    transfers: options.transfers,
    dispose: async () => {
      await searchIndexes.close();
      await workers.dispose();
    },
  };
}

export interface ToolEnvironmentOptions {
  readonly services: ToolServices;
  /** The folder the assistant works on. */
  readonly workspaceRoot: string;
  /** Default: the Familiar home's workspace (paths.defaultWorkspace). */
  readonly personaDir?: string;
  /** Default: nothing concealed. */
  readonly isConcealed?: (relativePath: string) => boolean;
}

/** Cheap (three realpath calls, no other I/O): the registry may build one per call. */
export async function createToolEnvironment(options: ToolEnvironmentOptions): Promise<ToolEnvironment> {
  const { services } = options;
  // A missing folder still gets an environment; tools then answer file_not_found instead of crashing.
  const [workspaceRoot, personaDir, home] = await Promise.all([
    realOrResolved(options.workspaceRoot),
    realOrResolved(options.personaDir ?? services.paths.defaultWorkspace),
    realOrResolved(services.paths.home),
  ]);
  const isConcealed = options.isConcealed ?? (() => false);
  return {
    workspaceRoot,
    personaDir,
    isConcealed,
    sandbox: createWorkspaceSandbox({
      workspaceRoot,
      personaDir,
      protectedDir: home,
      isConcealed,
      denyList: services.denyList,
    }),
    limits: services.limits,
    readTracker: services.readTracker,
    locks: services.locks,
    backups: createRecoveryStore(services.paths.backups, 'backup'),
    trash: createRecoveryStore(services.paths.trash, 'trash'),
    workers: services.workers,
    searchIndexes: services.searchIndexes,
    ...(services.transfers === undefined ? {} : { transfers: services.transfers }),
  };
}
