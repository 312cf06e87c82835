import { create } from 'zustand';
import type { FamiliarError } from '../../../shared/errors';
import type { FamiliarApi } from '../../../shared/ipc/contract';
import type { ProblemsChanged } from '../../../shared/ipc/problems';
import type { SearchIndexStatus, WorkspaceChanges, WorkspaceFile } from '../../../shared/ipc/workspace';
import { mergeProblems, noProblems } from './problem-counts';
import type { Problems } from './problem-counts';
import { applyChanges } from './tree-model';
import type { Dirs } from './tree-model';

export interface FileViewerState {
  readonly path: string;
  readonly status: 'loading' | 'loaded' | 'error';
  readonly file: WorkspaceFile | null;
  readonly error: FamiliarError | null;
}

export interface WorkspaceState {
  /** Real path of the workspace the listings belong to (app.info, then workspace.opened). */
  readonly root: string | null;
  readonly dirs: Dirs;
  readonly expanded: Readonly<Record<string, true>>;
  /** true: ignored entries are shown dimmed; false: hidden. */
  readonly showIgnored: boolean;
  /** The row the keyboard is on. */
  readonly activePath: string | null;
  readonly viewer: FileViewerState | null;
  /** Browser mode: the typed-path form for another folder is open. */
  readonly choosingFolder: boolean;
  /** The desktop folder dialog's folder could not be opened. */
  readonly folderError: FamiliarError | null;
  /** Problem counts of files a language server has checked (none when no server ran). */
  readonly problems: Problems;
  /** The semantic-search index's last reported progress (a status line while it builds). */
  readonly searchIndex: SearchIndexStatus | null;
}

const initial: WorkspaceState = {
  root: null,
  dirs: {},
  expanded: {},
  showIgnored: true,
  activePath: null,
  viewer: null,
  choosingFolder: false,
  folderError: null,
  problems: noProblems,
  searchIndex: null,
};

export const useWorkspaceStore = create<WorkspaceState>()(() => initial);

const get = useWorkspaceStore.getState;
const set = useWorkspaceStore.setState;

export const workspaceActions = {
  /** Shows this folder's tree from scratch (first load, another folder opened). */
  openRoot: async (api: FamiliarApi, root: string): Promise<void> => {
    if (get().root === root && get().dirs[''] !== undefined) return;
    set({ ...initial, root, showIgnored: get().showIgnored });
    await workspaceActions.load(api, '');
  },

  load: async (api: FamiliarApi, path: string): Promise<void> => {
    const held = get().dirs[path];
    set({
      dirs: { ...get().dirs, [path]: { status: 'loading', entries: held?.entries ?? [], omitted: 0, error: null } },
    });
    const root = get().root;
    const result = await api.invoke('workspace.listDir', { path });
    // Another folder was opened meanwhile, or the folder was collapsed away: drop the stale answer.
    if (get().root !== root || get().dirs[path] === undefined) return;
    set({
      dirs: {
        ...get().dirs,
        [path]: result.ok
          ? { status: 'loaded', entries: result.value.entries, omitted: result.value.omitted, error: null }
          : { status: 'error', entries: [], omitted: 0, error: result.error },
      },
    });
  },

  async toggle(api: FamiliarApi, path: string, open = get().expanded[path] !== true): Promise<void> {
    const expanded = { ...get().expanded };
    if (!open) {
      delete expanded[path];
      set({ expanded });
      return;
    }
    expanded[path] = true;
    set({ expanded });
    // Listed folders stay listed (and watched): reopening is instant and live.
    if (get().dirs[path] === undefined) await workspaceActions.load(api, path);
  },

  changed: (api: FamiliarApi, changes: WorkspaceChanges): void => {
    const { root, dirs, expanded, activePath, viewer } = get();
    if (root !== null && changes.root !== root) return;
    const next = applyChanges(dirs, expanded, changes);
    const gone = (path: string | null) =>
      path !== null && changes.removed.some((removed) => path === removed || path.startsWith(`${removed}/`));
    set({
      ...next,
      activePath: gone(activePath) ? null : activePath,
      viewer:
        viewer !== null && gone(viewer.path)
          ? { ...viewer, status: 'error', error: { code: 'file_not_found', message: viewer.path } }
          : viewer,
    });
    for (const path of changes.reload) if (next.dirs[path] !== undefined) void workspaceActions.load(api, path);
    // The file on screen changed on disk: show the new text.
    if (viewer !== null && changes.changed.some((entry) => entry.path === viewer.path))
      void workspaceActions.openFile(api, viewer.path);
  },

  /** A language server published diagnostics: the tree's and the header's counts follow. */
  problemsChanged: (event: ProblemsChanged): void => {
    const { root, problems } = get();
    if (root !== null && event.root !== root) return;
    set({ problems: mergeProblems(problems, event.files) });
  },

  /** After a reconnect main may be a new process: list every held folder again (and so re-watch it). */
  refreshAll: async (api: FamiliarApi): Promise<void> => {
    await Promise.all(Object.keys(get().dirs).map((path) => workspaceActions.load(api, path)));
  },

  setActive: (path: string | null): void => {
    set({ activePath: path });
  },
  setShowIgnored: (showIgnored: boolean): void => {
    set({ showIgnored });
  },

  openFile: async (api: FamiliarApi, path: string): Promise<void> => {
    const held = get().viewer;
    set({ viewer: { path, status: 'loading', file: held?.path === path ? held.file : null, error: null } });
    const result = await api.invoke('workspace.readFile', { path });
    if (get().viewer?.path !== path) return;
    set({
      viewer: result.ok
        ? { path, status: 'loaded', file: result.value, error: null }
        : { path, status: 'error', file: null, error: result.error },
    });
  },
  closeFile: (): void => {
    set({ viewer: null });
  },

  /**
   * Open folder… (button, menu, Ctrl/⌘+O): the native folder dialog in the desktop app; in browser
   * mode, which cannot show one, the typed-path form.
   */
  chooseFolder: async (api: FamiliarApi, mode: 'desktop' | 'browser' | undefined): Promise<void> => {
    if (mode !== 'desktop') {
      set({ choosingFolder: true });
      return;
    }
    set({ folderError: null });
    const result = await api.invoke('workspace.chooseFolder', {});
    if (!result.ok) set({ folderError: result.error });
  },
  setChoosingFolder: (choosingFolder: boolean): void => {
    set({ choosingFolder, folderError: null });
  },

  /** Asks main to open another folder; the tree follows on workspace.opened. */
  openFolder: async (api: FamiliarApi, path: string): Promise<FamiliarError | null> => {
    const result = await api.invoke('workspace.open', { path });
    return result.ok ? null : result.error;
  },

  connect: (api: FamiliarApi): (() => void) => {
    const stops = [
      api.on('workspace.changed', (changes) => workspaceActions.changed(api, changes)),
      api.on('workspace.opened', ({ path }) => void workspaceActions.openRoot(api, path)),
      api.on('problems.changed', workspaceActions.problemsChanged),
      api.on('workspace.searchIndex', (searchIndex) => set({ searchIndex })),
    ];
    return () => stops.forEach((stop) => stop());
  },
};
