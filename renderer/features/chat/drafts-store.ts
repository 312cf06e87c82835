import { create } from 'zustand';

/** The draft typed before any conversation exists; sending it creates one. */
export const NEW_CONVERSATION_DRAFT = 'new';

export const DRAFTS_STORAGE_KEY = 'familiar.drafts.v1';

/** Drafts longer than this are kept only in memory: localStorage holds ~5 MB for the whole page. */
const MAX_PERSISTED_DRAFT_CHARS = 200_000;

export interface DraftsState {
  /** conversationId (or NEW_CONVERSATION_DRAFT) → the composer's text. */
  readonly drafts: Readonly<Record<string, string>>;
}

/** Reads saved drafts, ignoring anything that is not a map of strings (an old or damaged entry). */
export function readSavedDrafts(storage: Storage | undefined): Record<string, string> {
  try {
    const raw = storage?.getItem(DRAFTS_STORAGE_KEY);
    if (raw === null || raw === undefined) return {};
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch {
    return {};
  }
}

const browserStorage = (): Storage | undefined => {
  try {
    return globalThis.localStorage;
  } catch {
    // Storage can be disabled (privacy settings): drafts then live only as long as the page.
    return undefined;
  }
};

export const useDraftsStore = create<DraftsState>(() => ({ drafts: readSavedDrafts(browserStorage()) }));

function persist(drafts: Readonly<Record<string, string>>): void {
  const kept = Object.fromEntries(
    Object.entries(drafts).filter(([, text]) => text !== '' && text.length <= MAX_PERSISTED_DRAFT_CHARS),
  );
  try {
    // Written on every change, synchronously: a crash or reload a moment later must not lose words.
    browserStorage()?.setItem(DRAFTS_STORAGE_KEY, JSON.stringify(kept));
  } catch {
    // Quota exceeded: the draft stays in memory; nothing better to do without nagging the user.
  }
}

export const draftActions = {
  setDraft(key: string, text: string): void {
    const drafts = { ...useDraftsStore.getState().drafts };
    if (text === '') delete drafts[key];
    else drafts[key] = text;
    useDraftsStore.setState({ drafts });
    persist(drafts);
  },
  clearDraft(key: string): void {
    draftActions.setDraft(key, '');
  },
  /** Moves a draft to another key (the new-conversation draft once its conversation exists). */
  moveDraft(from: string, to: string): void {
    const text = useDraftsStore.getState().drafts[from];
    if (text === undefined) return;
    const drafts = { ...useDraftsStore.getState().drafts, [to]: text };
    delete drafts[from];
    useDraftsStore.setState({ drafts });
    persist(drafts);
  },
};
