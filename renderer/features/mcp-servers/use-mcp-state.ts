import { useEffect, useState } from 'react';
import type { McpServerStatus, McpWorkspaceOffer } from '../../../shared/mcp-servers';
import { familiar } from '../../ipc/familiar';

export interface McpState {
  readonly servers: readonly McpServerStatus[];
  readonly offered: McpWorkspaceOffer | null;
}

/** The servers' status lines and the workspace's offer, from mcpServers.list and mcpServers.changed. */
export function useMcpState(): [McpState, (next: McpState) => void] {
  const [state, setState] = useState<McpState>({ servers: [], offered: null });
  useEffect(() => {
    let live = true;
    void familiar.invoke('mcpServers.list', {}).then((answer) => {
      if (live && answer.ok) setState(answer.value);
    });
    const stop = familiar.on('mcpServers.changed', (payload) => setState(payload));
    return () => {
      live = false;
      stop();
    };
  }, []);
  return [state, setState];
}
