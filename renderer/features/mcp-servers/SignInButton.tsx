import { useState } from 'react';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';

/**
 * A Streamable HTTP server that needs OAuth: Sign in prepares the authorization URL in main, the
 * user confirms its host, and the page opens it (the desktop app hands a new window to the system
 * browser; in browser mode it is a new tab). The browser returns to Familiar's loopback listener.
 */
export function SignInButton({ id, onError }: { readonly id: string; readonly onError: (message: string) => void }) {
  const t = useT();
  const [pending, setPending] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(false);
  const start = async () => {
    const answer = await familiar.invoke('mcpServers.signIn', { id });
    if (!answer.ok) onError(answer.error.message);
    else setPending(answer.value.authorizationUrl);
  };
  if (pending !== null) {
    return (
      <div className="field-row" role="group" aria-label={t('mcp.signIn', { id })}>
        <span>{t('mcp.signInConfirm', { host: new URL(pending).host, id })}</span>
        <button
          type="button"
          className="button button-primary button-small"
          onClick={() => {
            window.open(pending, '_blank', 'noopener,noreferrer');
            setPending(null);
            setWaiting(true);
          }}
        >
          {t('mcp.signInOpen')}
        </button>
        <button type="button" className="button button-small" onClick={() => setPending(null)}>
          {t('mcp.cancel')}
        </button>
      </div>
    );
  }
  return (
    <>
      <button
        type="button"
        className="button button-small"
        aria-label={t('mcp.signIn', { id })}
        onClick={() => void start()}
      >
        {t('mcp.signInShort')}
      </button>
      {waiting && <span className="muted">{t('mcp.signInWaiting', { id })}</span>}
    </>
  );
}
