import { create } from 'zustand';
import { useConversationsStore } from '../conversations/conversations-store';

/** The draft typed before any conversation exists; sending it creates one. */
export const NEW_CONVERSATION_DRAFT = 'new';

export const DRAFTS_STORAGE_KEY = 'familiar.drafts.v1';

/** Drafts longer than this are kept only in memory: localStorage holds ~5 MB for the whole page. */
const MAX_PERSISTED_DRAFT_CHARS = 200_000;

export interface DraftsState {
  /** conversationId (or NEW_CONVERSATION_DRAFT) → the composer's text. */
  readonly drafts: Readonly<Record<string, string>>;
  /**
   * Keys whose drafts never reach localStorage: incognito conversations'. Remembered once seen, so a
   * draft still in memory after its conversation left the list (deleted, shutdown) stays off disk.
   */
  readonly memoryOnly: ReadonlySet<string>;
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

export const useDraftsStore = create<DraftsState>(() => ({
  drafts: readSavedDrafts(browserStorage()),
  memoryOnly: new Set<string>(),
}));

/** An incognito conversation's words stay in memory, like the conversation itself. */
function isIncognito(key: string): boolean {
  const { conversations, searchResults } = useConversationsStore.getState();
  return [...conversations, ...(searchResults ?? [])].some(
    (summary) => summary.id === key && summary.incognito === true,
  );
}

/** The memory-only keys including `key` when it belongs to an incognito conversation. */
function memoryOnlyWith(key: string): ReadonlySet<string> {
  const { memoryOnly } = useDraftsStore.getState();
  return memoryOnly.has(key) || !isIncognito(key) ? memoryOnly : new Set([...memoryOnly, key]);
}

function persist(drafts: Readonly<Record<string, string>>, memoryOnly: ReadonlySet<string>): void {
  const kept = Object.fromEntries(
    Object.entries(drafts).filter(
      ([key, text]) => text !== '' && text.length <= MAX_PERSISTED_DRAFT_CHARS && !memoryOnly.has(key),
    ),
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
    const memoryOnly = memoryOnlyWith(key);
    useDraftsStore.setState({ drafts, memoryOnly });
    persist(drafts, memoryOnly);
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
    const memoryOnly = memoryOnlyWith(to);
    useDraftsStore.setState({ drafts, memoryOnly });
    persist(drafts, memoryOnly);
  },
};
