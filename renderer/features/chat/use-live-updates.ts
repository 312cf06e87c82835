import { useEffect } from 'react';
import { connection, familiar } from '../../ipc/familiar';
import { conversationsActions } from '../conversations/conversations-actions';
import { providersActions } from '../providers/provider-actions';
import { chatActions } from './chat-actions';

/**
 * Loads what the chat shows and keeps it current from the core's events: turns as they stream, the
 * conversation list, the provider status (settings.changed) and tool calls waiting for approval.
 * After a lost connection everything is loaded again: events sent meanwhile are gone.
 */
export function useLiveUpdates(): void {
  useEffect(() => {
    const loadAll = () => {
      void conversationsActions.load();
      void providersActions.load();
      void chatActions.syncApprovals();
    };
    loadAll();
    let lost = false;
    const unsubscribe = [
      familiar.on('chat.event', chatActions.handleEvent),
      familiar.on('conversations.changed', (change) => {
        conversationsActions.applyChange(change);
        if (change.kind === 'removed') chatActions.forget(change.id);
      }),
      familiar.on('settings.changed', () => void providersActions.load()),
      familiar.on('approvals.requested', chatActions.approvalRequested),
      familiar.on('approvals.resolved', chatActions.approvalResolved),
      connection.onStatus((status) => {
        if (status === 'closed') lost = true;
        if (status === 'open' && lost) {
          lost = false;
          loadAll();
          void chatActions.reloadAll();
        }
      }),
    ];
    return () => unsubscribe.forEach((stop) => stop());
  }, []);
}
