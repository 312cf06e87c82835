import { create } from 'zustand';
import type { FamiliarApi } from '../../../shared/ipc/contract';
import { policySchema } from '../../../shared/policy';
import type { Policy, PolicyDecision, PolicyOperation, PolicyRule } from '../../../shared/policy';

/** A row being edited; `key` keeps React's identity stable while rows move. */
export interface DraftRule {
  readonly key: string;
  readonly pattern: string;
  readonly decisions: Partial<Record<PolicyOperation, PolicyDecision>>;
  readonly memory: boolean;
  readonly note: string;
}

export interface PolicyState {
  readonly saved: Policy | null;
  /** Why policy.json was not used at start-up (the defaults apply meanwhile). */
  readonly loadError: string | null;
  readonly draft: readonly DraftRule[];
  /** main's own words when it refused the table (invalid_policy) or could not answer. */
  readonly saveError: string | null;
  readonly busy: boolean;
  /** Set after a save or reset went through, for a quiet confirmation. */
  readonly savedNotice: boolean;
}

export const usePolicyStore = create<PolicyState>()(() => ({
  saved: null,
  loadError: null,
  draft: [],
  saveError: null,
  busy: false,
  savedNotice: false,
}));

const get = usePolicyStore.getState;
const set = usePolicyStore.setState;

let nextKey = 0;
const toDraft = (rules: readonly PolicyRule[]): DraftRule[] =>
  rules.map((rule) => ({
    key: `rule-${nextKey++}`,
    pattern: rule.pattern,
    decisions: { ...rule.decisions },
    memory: rule.memory,
    note: rule.note ?? '',
  }));

/** The table as the contract carries it; empty notes are left out. */
export function draftToPolicy(draft: readonly DraftRule[]): unknown {
  return {
    version: 1,
    rules: draft.map(({ pattern, decisions, memory, note }) => ({
      pattern,
      decisions,
      memory,
      ...(note.trim() === '' ? {} : { note }),
    })),
  };
}

/** Field problems the page can see before main does: `rules.3.pattern` → message. main decides. */
export function draftProblems(draft: readonly DraftRule[]): ReadonlyMap<string, string> {
  const parsed = policySchema.safeParse(draftToPolicy(draft));
  const problems = new Map<string, string>();
  if (!parsed.success) for (const issue of parsed.error.issues) problems.set(issue.path.join('.'), issue.message);
  return problems;
}

export const selectDirty = (state: PolicyState): boolean =>
  state.saved !== null &&
  JSON.stringify(draftToPolicy(state.draft)) !== JSON.stringify(draftToPolicy(toDraft(state.saved.rules)));

function edit(change: (draft: DraftRule[]) => void): void {
  const draft = [...get().draft];
  change(draft);
  set({ draft, savedNotice: false });
}

function accepted(state: { policy: Policy; loadError: string | null }): void {
  set({ saved: state.policy, loadError: state.loadError, draft: toDraft(state.policy.rules), saveError: null });
}

export const policyActions = {
  load: async (api: FamiliarApi): Promise<void> => {
    const result = await api.invoke('policy.get', {});
    if (result.ok) accepted(result.value);
    else set({ saveError: result.error.message });
  },

  updateRule: (key: string, change: Partial<Omit<DraftRule, 'key'>>): void => {
    edit((draft) => {
      const index = draft.findIndex((rule) => rule.key === key);
      const rule = draft[index];
      if (rule !== undefined) draft[index] = { ...rule, ...change };
    });
  },
  setDecision: (key: string, operation: PolicyOperation, decision: PolicyDecision | null): void => {
    const rule = get().draft.find((candidate) => candidate.key === key);
    if (rule === undefined) return;
    const decisions = { ...rule.decisions };
    if (decision === null) delete decisions[operation];
    else decisions[operation] = decision;
    policyActions.updateRule(key, { decisions });
  },
  /** New rows go above the catch-all, where they can still decide something. */
  addRule: (): void => {
    edit((draft) => {
      const rule: DraftRule = { key: `rule-${nextKey++}`, pattern: '', decisions: {}, memory: false, note: '' };
      const last = draft.at(-1);
      draft.splice(last?.pattern === '**' ? draft.length - 1 : draft.length, 0, rule);
    });
  },
  removeRule: (key: string): void => {
    edit((draft) => {
      const index = draft.findIndex((rule) => rule.key === key);
      if (index !== -1) draft.splice(index, 1);
    });
  },
  moveRule: (key: string, step: -1 | 1): void => {
    edit((draft) => {
      const index = draft.findIndex((rule) => rule.key === key);
      const other = draft[index + step];
      const rule = draft[index];
      if (rule === undefined || other === undefined) return;
      draft[index] = other;
      draft[index + step] = rule;
    });
  },
  discard: (): void => {
    const { saved } = get();
    if (saved !== null) set({ draft: toDraft(saved.rules), saveError: null, savedNotice: false });
  },

  /** main validates the whole table: a refusal keeps the draft and shows main's message. */
  save: async (api: FamiliarApi): Promise<boolean> => {
    set({ busy: true, saveError: null, savedNotice: false });
    const result = await api.invoke('policy.update', { policy: draftToPolicy(get().draft) });
    set({ busy: false });
    if (!result.ok) {
      set({ saveError: result.error.message });
      return false;
    }
    accepted(result.value);
    set({ savedNotice: true });
    return true;
  },

  reset: async (api: FamiliarApi): Promise<void> => {
    set({ busy: true, saveError: null, savedNotice: false });
    const result = await api.invoke('policy.reset', {});
    set({ busy: false });
    if (result.ok) {
      accepted(result.value);
      set({ savedNotice: true });
    } else set({ saveError: result.error.message });
  },
};
