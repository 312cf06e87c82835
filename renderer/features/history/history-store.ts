import type { z } from 'zod';
import { create } from 'zustand';
import type { FamiliarError } from '../../../shared/errors';
import type { FamiliarApi } from '../../../shared/ipc/contract';
import type { PersonaVersion, VersionSummary, personaFileNameSchema } from '../../../shared/ipc/history';

export type PersonaFile = z.infer<typeof personaFileNameSchema>;
export const personaFiles: readonly PersonaFile[] = ['SOUL.md', 'USER.md', 'MEMORY.md', 'HEARTBEAT.md'];

export interface HistoryState {
  readonly open: boolean;
  readonly file: PersonaFile;
  /** Newest first, as history.list answered; null until loaded. */
  readonly versions: readonly VersionSummary[] | null;
  /** The file's text now: the right side of the diff. */
  readonly current: string;
  readonly selected: PersonaVersion | null;
  readonly error: FamiliarError | null;
  readonly reverting: boolean;
  /** The last revert's outcome, shown until the user picks something else. */
  readonly revert: { readonly ok: true } | { readonly ok: false; readonly error: FamiliarError } | null;
}

const initial: HistoryState = {
  open: false,
  file: 'SOUL.md',
  versions: null,
  current: '',
  selected: null,
  error: null,
  reverting: false,
  revert: null,
};

export const useHistoryStore = create<HistoryState>()(() => initial);

/**
 * The version to compare first: the newest one that is not simply the current text (the newest
 * version usually is, since every change is recorded as it happens).
 */
export function defaultVersion(versions: readonly VersionSummary[], current: string): VersionSummary | undefined {
  const [newest, previous] = versions;
  if (newest === undefined) return undefined;
  return newest.chars !== current.length ? newest : (previous ?? newest);
}

// Answers that arrive after the user moved on (another file or version) are dropped.
let loadToken = 0;
let selectToken = 0;

export const historyActions = {
  reset: (): void => useHistoryStore.setState(initial),

  show: (api: FamiliarApi, file?: PersonaFile): void => {
    useHistoryStore.setState({ open: true, ...(file === undefined ? {} : { file }) });
    void historyActions.load(api, { selectDefault: true });
  },

  hide: (): void => useHistoryStore.setState({ open: false, revert: null }),

  chooseFile: (api: FamiliarApi, file: PersonaFile): void => {
    useHistoryStore.setState({ file, versions: null, selected: null, revert: null, current: '' });
    void historyActions.load(api, { selectDefault: true });
  },

  /** Reads the list and the current text; keeps the chosen version when it is still listed. */
  load: async (api: FamiliarApi, options: { selectDefault?: boolean } = {}): Promise<void> => {
    const { file } = useHistoryStore.getState();
    const token = ++loadToken;
    const result = await api.invoke('history.list', { file });
    if (token !== loadToken) return;
    if (!result.ok) {
      useHistoryStore.setState({ error: result.error });
      return;
    }
    const { versions, current } = result.value;
    useHistoryStore.setState({ versions, current, error: null });
    const selected = useHistoryStore.getState().selected;
    const keep = selected !== null && !options.selectDefault && versions.some((version) => version.id === selected.id);
    if (!keep) {
      const first = defaultVersion(versions, current);
      if (first === undefined) useHistoryStore.setState({ selected: null });
      else await historyActions.select(api, first.id, { keepRevert: true });
    }
  },

  select: async (api: FamiliarApi, id: string, options: { keepRevert?: boolean } = {}): Promise<void> => {
    const { file } = useHistoryStore.getState();
    const token = ++selectToken;
    const result = await api.invoke('history.get', { file, id });
    if (token !== selectToken || useHistoryStore.getState().file !== file) return;
    useHistoryStore.setState(
      result.ok
        ? { selected: result.value, error: null, ...(options.keepRevert === true ? {} : { revert: null }) }
        : { error: result.error },
    );
  },

  /** Writes the chosen version back (main keeps the revert as a new version) and shows the result. */
  revert: async (api: FamiliarApi): Promise<void> => {
    const { file, selected, reverting } = useHistoryStore.getState();
    if (selected === null || reverting) return;
    useHistoryStore.setState({ reverting: true, revert: null });
    const result = await api.invoke('history.revert', { file, id: selected.id });
    useHistoryStore.setState({
      reverting: false,
      revert: result.ok ? { ok: true } : { ok: false, error: result.error },
    });
    if (result.ok) await historyActions.load(api);
  },

  /** Follows history.changed while the panel is open: a new version (by anyone) shows at once. */
  connect: (api: FamiliarApi): (() => void) =>
    api.on('history.changed', ({ file }) => {
      const state = useHistoryStore.getState();
      if (state.open && state.file === file) void historyActions.load(api);
    }),
};
