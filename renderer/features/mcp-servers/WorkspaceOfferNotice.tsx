import { useState } from 'react';
import { FormError } from '../../app/FormError';
import { useMcpState } from './use-mcp-state';
import { WorkspaceOffer } from './WorkspaceOffer';

/** In the chat: the open workspace offers MCP servers nobody has answered for yet. */
export function WorkspaceOfferNotice() {
  const [state, setState] = useMcpState();
  const [error, setError] = useState<string | null>(null);
  if (state.offered === null || state.offered.decision !== 'pending' || state.offered.servers.length === 0) return null;
  return (
    <>
      <WorkspaceOffer offered={state.offered} statuses={state.servers} onState={setState} onError={setError} brief />
      <FormError inline message={error} />
    </>
  );
}
