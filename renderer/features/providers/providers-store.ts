import { create } from 'zustand';
import type { FamiliarError } from '../../../shared/errors';
import type { CallOutput, FamiliarApi } from '../../../shared/ipc/contract';
import type { ProviderStatus } from '../../../shared/ipc/providers';
import type { Result } from '../../../shared/result';
import type { ProviderSettings } from '../../../shared/settings';

export type OllamaDetection = CallOutput<'providers.detectOllama'>;
export type ConnectionTestOutcome = CallOutput<'providers.test'>;

export interface ProvidersState {
  /** null until providers.status answered. */
  readonly status: ProviderStatus | null;
  readonly loadError: FamiliarError | null;
  readonly ollama: { readonly state: 'idle' | 'detecting' | 'done'; readonly found: OllamaDetection | null };
  /** The provider setup dialog (opened from the chat when a turn needs a provider). */
  readonly dialogOpen: boolean;
}

export const initialProvidersState = (): ProvidersState => ({
  status: null,
  loadError: null,
  ollama: { state: 'idle', found: null },
  dialogOpen: false,
});

export const useProvidersStore = create<ProvidersState>(initialProvidersState);

export interface ProviderDraft {
  readonly provider: ProviderSettings;
  /** Typed in this form; undefined keeps whatever key is saved. */
  readonly apiKey?: string;
}

export interface ProvidersActions {
  readonly load: () => Promise<void>;
  /** Saves and answers the new status (or why it was refused). */
  readonly save: (draft: ProviderDraft & { readonly removeKey?: boolean }) => Promise<Result<ProviderStatus>>;
  /** Streams one token with the settings as entered; nothing is saved. */
  readonly test: (draft: ProviderDraft) => Promise<Result<ConnectionTestOutcome>>;
  readonly detectOllama: (baseUrl?: string) => Promise<OllamaDetection | null>;
  readonly openDialog: () => void;
  readonly closeDialog: () => void;
}

export function createProvidersActions(api: FamiliarApi, store = useProvidersStore): ProvidersActions {
  return {
    async load() {
      const result = await api.invoke('providers.status', {});
      store.setState(result.ok ? { status: result.value, loadError: null } : { loadError: result.error });
    },

    async save({ provider, apiKey, removeKey }) {
      const key = removeKey === true ? null : apiKey;
      const result = await api.invoke('providers.save', key === undefined ? { provider } : { provider, apiKey: key });
      if (result.ok) store.setState({ status: result.value, loadError: null });
      return result;
    },

    test: ({ provider, apiKey }) =>
      api.invoke('providers.test', apiKey === undefined ? { provider } : { provider, apiKey }),

    async detectOllama(baseUrl) {
      store.setState((state) => ({ ollama: { ...state.ollama, state: 'detecting' } }));
      const result = await api.invoke('providers.detectOllama', baseUrl === undefined ? {} : { baseUrl });
      const found = result.ok ? result.value : null;
      store.setState({ ollama: { state: 'done', found } });
      return found;
    },

    openDialog: () => store.setState({ dialogOpen: true }),
    closeDialog: () => store.setState({ dialogOpen: false }),
  };
}
