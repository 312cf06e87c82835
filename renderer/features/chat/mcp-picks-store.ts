import { create } from 'zustand';
import { maxMcpAttachments } from '../../../shared/mcp-attachments';
import type { McpAttachmentRequest, McpCatalog } from '../../../shared/mcp-attachments';
import type { FamiliarApi } from '../../../shared/ipc/contract';
import { draftListActions } from './draft-lists';

/** A resource or prompt picked in the composer, waiting to be sent: what chat.send names, and its chip's text. */
export interface McpPick {
  readonly id: string;
  readonly request: McpAttachmentRequest;
  readonly label: string;
}

export interface McpPicksState {
  /** Draft key → the resources and prompts picked for the next message. */
  readonly pending: Readonly<Record<string, readonly McpPick[]>>;
  /** The servers' lists as last read (null until the menu first opens). */
  readonly catalog: McpCatalog | null;
  readonly loading: boolean;
}

/** In memory only, like the pictures: a draft's picks are gone after a reload. */
export const useMcpPicksStore = create<McpPicksState>(() => ({ pending: {}, catalog: null, loading: false }));

let nextId = 0;

const setFor = (key: string, picks: readonly McpPick[]) =>
  useMcpPicksStore.setState((state) => ({ pending: { ...state.pending, [key]: picks } }));

const pendingPicks = (key: string) => useMcpPicksStore.getState().pending[key] ?? [];

export function createMcpPicksActions(api: Pick<FamiliarApi, 'invoke'>) {
  return {
    /** Reads the ready servers' resources, templates and prompts again (each time a menu opens). */
    async refresh(): Promise<void> {
      useMcpPicksStore.setState({ loading: true });
      const answer = await api.invoke('mcpServers.catalog', {});
      useMcpPicksStore.setState((state) => ({ loading: false, catalog: answer.ok ? answer.value : state.catalog }));
    },
    /** Adds a pick (the same resource or prompt twice is one chip; at most maxMcpAttachments). */
    add(key: string, request: McpAttachmentRequest, label: string): void {
      const current = pendingPicks(key);
      const same = (pick: McpPick) => JSON.stringify(pick.request) === JSON.stringify(request);
      if (current.some(same) || current.length >= maxMcpAttachments) return;
      nextId += 1;
      setFor(key, [...current, { id: `mcp-${nextId}`, request, label }]);
    },
    ...draftListActions(pendingPicks, setFor),
  };
}
