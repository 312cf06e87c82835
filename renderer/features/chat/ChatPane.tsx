import { useEffect } from 'react';
import { layoutWidths } from '../../app/layout-plan';
import type { PanelPlacement } from '../../app/layout-plan';
import { layoutActions } from '../../app/layout-store';
import { useT } from '../../i18n/i18n';
import { ConversationSidebar } from '../conversations/ConversationSidebar';
import { conversationsActions } from '../conversations/conversations-actions';
import { useConversationsStore } from '../conversations/conversations-store';
import { ProviderDialog } from '../providers/ProviderDialog';
import { ProviderSetup } from '../providers/ProviderSetup';
import { useProvidersStore } from '../providers/providers-store';
import { WorkspaceOfferNotice } from '../mcp-servers/WorkspaceOfferNotice';
import { ConversationView } from './ConversationView';
import { useLiveUpdates } from './use-live-updates';
import './chat.css';

/** Ctrl+N (Cmd+N on macOS) starts a conversation. Browsers keep Ctrl+N for a new window; the button stays. */
function useNewConversationShortcut(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.shiftKey && !event.altKey && event.key.toLowerCase() === 'n') {
        event.preventDefault();
        void conversationsActions.create();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** The chat: conversation list beside the open conversation; the provider setup on first run. */
export function ChatPane({ conversations }: { readonly conversations: PanelPlacement }) {
  const t = useT();
  useLiveUpdates();
  useNewConversationShortcut();
  const firstRun = useProvidersStore((state) => state.status !== null && state.status.provider === null);
  const providerError = useProvidersStore((state) => state.loadError);
  const activeId = useConversationsStore((state) => state.activeId);
  // A conversation picked from the floating list is what the user wanted to see: the list makes way.
  useEffect(() => layoutActions.closeOverlay(), [activeId]);

  return (
    <main
      className="chat-layout"
      style={{
        gridTemplateColumns:
          conversations === 'docked'
            ? `${layoutWidths.conversations}px minmax(${layoutWidths.chatMin}px, 1fr)`
            : 'minmax(0, 1fr)',
      }}
      aria-labelledby="chat-title"
    >
      <h2 id="chat-title" className="visually-hidden">
        {t('chat.title')}
      </h2>
      <ConversationSidebar placement={conversations} />
      <div className="chat-main">
        {providerError !== null && (
          <p className="banner banner-error" role="alert">
            {t('provider.loadFailed', { message: providerError.message })}
          </p>
        )}
        {!firstRun && <WorkspaceOfferNotice />}
        {firstRun ? <ProviderSetup /> : <ConversationView conversationId={activeId} />}
      </div>
      <ProviderDialog />
    </main>
  );
}
