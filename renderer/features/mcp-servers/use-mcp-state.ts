import { useEffect } from 'react';
import type { McpServerStatus, McpWorkspaceOffer } from '../../../shared/mcp-servers';
import { familiar } from '../../ipc/familiar';
import { useAnswer } from '../../ipc/use-answer';

export interface McpState {
  readonly servers: readonly McpServerStatus[];
  readonly offered: McpWorkspaceOffer | null;
}

const nothingYet: McpState = { servers: [], offered: null };

/** The servers' status lines and the workspace's offer, from mcpServers.list and mcpServers.changed. */
export function useMcpState(): [McpState, (next: McpState) => void] {
  const listed = useAnswer<McpState>(() => familiar.invoke('mcpServers.list', {}), []);
  const { setValue } = listed;
  useEffect(() => familiar.on('mcpServers.changed', setValue), [setValue]);
  return [listed.value ?? nothingYet, setValue];
}
