import type { WorkspaceChanges, WorkspaceEntry } from '../../../shared/ipc/workspace';
import { ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { Logger } from '../../platform/logging/logger';
import type { Handlers } from '../../platform/ipc/dispatcher';
import type { EventHub } from '../../platform/ipc/event-hub';
import type { AnchorRoots } from '../../platform/disk/anchor-roots';
import { checkChosenFolder, realFolder } from '../../platform/disk/chosen-folder';
import type { SettingsStore } from '../../platform/storage/settings-store';
import { createChangeBatcher } from './change-batcher';
import type { ChangeBatch, ChangeBatcher } from './change-batcher';
import { createFolderWatcher } from './folder-watcher';
import type { FolderWatcher } from './folder-watcher';
import { describeEntry, listWorkspaceDir } from './list-dir';
import { readWorkspaceText } from './read-text-file';
import { hasPersonaOverlay, isPersonaPath, resolveWorkspacePath, userView } from './workspace-paths';
import type { WorkspaceRoots } from './workspace-paths';
import { parentRel } from '../../platform/disk/path-syntax';

/** How long watcher events gather before the tree hears of them: well under the 1 s users notice. */
export const CHANGE_BATCH_MS = 60;
/** Beyond this many changes in one batch the affected folders are listed again instead. */
const MAX_ENTRIES_PER_BATCH = 1000;

export type WorkspaceHandlers = Pick<Handlers, 'workspace.listDir' | 'workspace.readFile' | 'workspace.open'>;

export interface WorkspaceServiceOptions {
  /** Real path of the folder to open first. */
  readonly root: string;
  /** Real path of the persona folder (the Familiar home's workspace). */
  readonly personaDir: string;
  /** The Familiar home: no folder inside it but the persona folder may become the workspace. */
  readonly home: string;
  readonly settings: SettingsStore;
  /** The folders held open by descriptor, shared with the tools' sandbox. */
  readonly anchors: AnchorRoots;
  readonly events: EventHub;
  readonly logger: Logger;
  readonly batchMs?: number;
}

export interface WorkspaceService {
  /** Real path of the open workspace. */
  current(): string;
  /** Makes another folder the workspace: the adapter for a native folder dialog calls this too. */
  open(path: string): Promise<Result<{ path: string }>>;
  readonly handlers: WorkspaceHandlers;
  close(): Promise<void>;
}

interface OpenWorkspace {
  readonly roots: WorkspaceRoots;
  readonly watcher: FolderWatcher;
  readonly batcher: ChangeBatcher;
}

/** The user's view of the workspace: listings, the viewer, live change events, choosing a folder. */
export async function createWorkspaceService(options: WorkspaceServiceOptions): Promise<WorkspaceService> {
  const personaDir = await realFolder(options.personaDir);
  const home = await realFolder(options.home);
  const batchMs = options.batchMs ?? CHANGE_BATCH_MS;

  const describeBatch = async (roots: WorkspaceRoots, batch: ChangeBatch) => {
    const changes: WorkspaceChanges = {
      root: roots.root,
      added: [],
      changed: [],
      removed: [...batch.removed],
      reload: [],
    };
    const reload = new Set<string>();
    for (const path of [...batch.added, ...batch.changed, ...batch.removed]) {
      // Rules are read afresh for every listing and entry: a changed .gitignore only asks for a reload.
      if (path.endsWith('.gitignore') && (path === '.gitignore' || path.endsWith('/.gitignore'))) {
        reload.add(parentRel(path));
      }
    }
    if (batch.added.length + batch.changed.length + batch.removed.length > MAX_ENTRIES_PER_BATCH) {
      for (const path of [...batch.added, ...batch.changed, ...batch.removed]) reload.add(parentRel(path));
      return { ...changes, removed: [], reload: [...reload] };
    }
    const describe = async (path: string): Promise<WorkspaceEntry | null> => describeEntry(roots, path);
    for (const path of batch.added) {
      const entry = await describe(path);
      if (entry !== null) changes.added.push(entry);
    }
    for (const path of batch.changed) {
      const entry = await describe(path);
      if (entry !== null) changes.changed.push(entry);
      else changes.removed.push(path);
    }
    return { ...changes, reload: [...reload] };
  };

  const openFolder = (root: string): OpenWorkspace => {
    const roots: WorkspaceRoots = { root, personaDir, home, anchors: options.anchors };
    const batcher = createChangeBatcher(batchMs, (batch) => {
      describeBatch(roots, batch).then(
        (changes) => {
          if (current.roots === roots) options.events.emit('workspace.changed', changes);
        },
        (error: unknown) => options.logger.error('could not describe workspace changes', error),
      );
    });
    const watcher = createFolderWatcher({
      onChange: (kind, relPath) => batcher.push(kind, relPath),
      onError: (error) => options.logger.warn(`workspace watcher: ${String(error)}`),
    });
    return { roots, watcher, batcher };
  };

  let current = openFolder(options.root);

  const watchListed = async (workspace: OpenWorkspace, relPath: string, realDir: string) => {
    const { roots, watcher } = workspace;
    if (relPath === '' && hasPersonaOverlay(roots)) {
      await Promise.all([
        watcher.watch({ relDir: '', realDir: roots.root, accepts: (name) => !isPersonaPath(name) }),
        watcher.watch({ relDir: '', realDir: roots.personaDir, accepts: isPersonaPath }),
      ]);
    } else {
      await watcher.watch({ relDir: relPath, realDir });
    }
  };

  const close = async (workspace: OpenWorkspace) => {
    workspace.batcher.dispose();
    await workspace.watcher.close();
  };

  const open: WorkspaceService['open'] = async (raw) => {
    const checked = await checkChosenFolder(raw, { home, personaDir });
    if (!checked.ok) return checked;
    const real = checked.value;
    if (real !== current.roots.root) {
      const previous = current;
      current = openFolder(real);
      await close(previous);
    }
    await options.settings.update({ workspace: { path: real === personaDir ? null : real } });
    options.events.emit('workspace.opened', { path: real });
    return ok({ path: real });
  };

  const handlers: WorkspaceHandlers = {
    'workspace.listDir': async ({ path }) => {
      const workspace = current;
      const location = await resolveWorkspacePath(workspace.roots, path);
      if (!location.ok) return location;
      // Watch before listing: a file created while the watch starts is then in the listing or in an event.
      const { relPath, facts } = location.value;
      const watchPath = userView(workspace.roots).watchPathOf(location.value);
      if (facts?.kind === 'directory' && watchPath !== undefined) await watchListed(workspace, relPath, watchPath);
      return listWorkspaceDir(workspace.roots, relPath);
    },
    'workspace.readFile': ({ path }) => readWorkspaceText(current.roots, path),
    'workspace.open': ({ path }) => open(path),
  };

  return {
    current: () => current.roots.root,
    open,
    handlers,
    close: () => close(current),
  };
}
