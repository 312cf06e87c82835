import { create } from 'zustand';
import type { FamiliarApi } from '../../../shared/ipc/contract';
import type { DownloadOffer, UploadResult } from '../../../shared/ipc/transfers';
import { downloadBase64, fileToBase64 } from './file-bytes';

export interface TransferProblem {
  readonly kind: 'upload' | 'save';
  readonly name: string;
  readonly message: string;
}

export interface TransfersState {
  /** Downloads the assistant offered that wait for the user, oldest first. */
  readonly offers: readonly DownloadOffer[];
  /** Uploads saved since the chat last took their notes (see takeUploadNotes). */
  readonly uploads: readonly UploadResult[];
  readonly problems: readonly TransferProblem[];
  readonly dragging: boolean;
}

const initial: TransfersState = { offers: [], uploads: [], problems: [], dragging: false };

export const useTransfersStore = create<TransfersState>()(() => initial);
const get = useTransfersStore.getState;
const set = useTransfersStore.setState;

const withoutOffer = (id: string) => set({ offers: get().offers.filter((offer) => offer.id !== id) });
const problem = (entry: TransferProblem) => set({ problems: [...get().problems, entry] });

export const transfersActions = {
  reset: (): void => set(initial),

  connect: (api: FamiliarApi): (() => void) => {
    const stops = [
      api.on('transfers.offered', (offer) => {
        if (!get().offers.some((held) => held.id === offer.id)) set({ offers: [...get().offers, offer] });
      }),
      api.on('transfers.resolved', ({ id }) => withoutOffer(id)),
    ];
    void transfersActions.load(api);
    return () => stops.forEach((stop) => stop());
  },

  /** main's pending offers (start-up and after a reconnect). */
  load: async (api: FamiliarApi): Promise<void> => {
    const heldBefore = new Set(get().offers.map((offer) => offer.id));
    const result = await api.invoke('transfers.pending', {});
    if (!result.ok) return;
    // main's list is the truth, except for offers announced while it was on its way.
    const listed = new Set(result.value.offers.map((offer) => offer.id));
    const arrivedMeanwhile = get().offers.filter((offer) => !heldBefore.has(offer.id) && !listed.has(offer.id));
    set({ offers: [...result.value.offers, ...arrivedMeanwhile] });
  },

  /** Copies files the user dropped or picked into uploads/, one call per file. */
  upload: async (api: FamiliarApi, files: readonly File[], conversationId?: string): Promise<void> => {
    for (const file of files) {
      const result = await api.invoke('transfers.upload', {
        name: file.name,
        data: await fileToBase64(file),
        ...(conversationId === undefined ? {} : { conversationId }),
      });
      if (result.ok) set({ uploads: [...get().uploads, result.value] });
      else problem({ kind: 'upload', name: file.name, message: result.error.message });
    }
  },

  /**
   * The notes of uploads not yet mentioned to the assistant, cleared as they are taken: the chat
   * composer puts them in front of the next message so the model knows what arrived and where.
   */
  takeUploadNotes: (): string[] => {
    const notes = get().uploads.map((upload) => upload.note);
    set({ uploads: [] });
    return notes;
  },

  /** Desktop: the native Save dialog in main. Browser: fetch the bytes and start a download. */
  save: async (api: FamiliarApi, offer: DownloadOffer, mode: 'desktop' | 'browser'): Promise<void> => {
    if (mode === 'desktop') {
      const result = await api.invoke('transfers.saveAs', { id: offer.id });
      if (!result.ok) problem({ kind: 'save', name: offer.name, message: result.error.message });
      else if (result.value.saved) withoutOffer(offer.id);
      return;
    }
    const fetched = await api.invoke('transfers.fetch', { id: offer.id });
    if (!fetched.ok) {
      problem({ kind: 'save', name: offer.name, message: fetched.error.message });
      return;
    }
    downloadBase64(fetched.value.name, fetched.value.data);
    withoutOffer(offer.id);
    // The browser does not say whether its download finished: "saved" means it was started.
    await api.invoke('transfers.answer', { id: offer.id, saved: true });
  },

  dismiss: async (api: FamiliarApi, offer: DownloadOffer): Promise<void> => {
    withoutOffer(offer.id);
    await api.invoke('transfers.answer', { id: offer.id, saved: false });
  },

  dismissUpload: (path: string): void => set({ uploads: get().uploads.filter((upload) => upload.path !== path) }),
  dismissProblem: (index: number): void => set({ problems: get().problems.filter((_, at) => at !== index) }),
  setDragging: (dragging: boolean): void => {
    if (get().dragging !== dragging) set({ dragging });
  },
};
