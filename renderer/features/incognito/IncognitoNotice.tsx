import type { ConversationSummary } from '../../../shared/ipc/conversations';
import { useT } from '../../i18n/i18n';

/** For the chat: shown above an incognito conversation, so nobody mistakes it for a saved one. */
export function IncognitoNotice({ conversation }: { readonly conversation: Pick<ConversationSummary, 'incognito'> }) {
  const t = useT();
  if (conversation.incognito !== true) return null;
  return (
    <p className="incognito-notice" role="note" data-testid="incognito-notice">
      <span className="badge">{t('incognito.badge')}</span> {t('incognito.notice')}
    </p>
  );
}
