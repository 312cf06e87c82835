import type { TurnError } from '../../../shared/ipc/chat';
import { useT } from '../../i18n/i18n';
import { conversationsActions } from '../conversations/conversations-actions';
import { providersActions } from '../providers/provider-actions';
import { errorMessageKey, fixedInProviderSettings } from '../providers/provider-error-text';
import { useCountdown } from './use-countdown';

interface TurnErrorNoticeProps {
  readonly error: TurnError;
  /** When the error happened (ms since epoch): a rate limit's wait counts from here. */
  readonly since: number;
  /** Offer Retry (only for the conversation's last attempt, when nothing runs). */
  readonly onRetry: (() => void) | null;
  readonly retrying: boolean;
}

/**
 * Why a turn failed, in the user's language, with what to do next: Retry (after the provider's
 * Retry-After for a rate limit), the provider setup for key/model/setup problems, a new conversation
 * when the context is full. The provider's own words follow in small print.
 */
export function TurnErrorNotice({ error, since, onRetry, retrying }: TurnErrorNoticeProps) {
  const t = useT();
  const deadline = error.retryAfterSeconds === undefined ? null : since + error.retryAfterSeconds * 1000;
  const wait = useCountdown(deadline);
  return (
    <div className="turn-error" role="group" aria-label={t('chat.errorLabel')} data-code={error.code}>
      <p className="turn-error-title">{t(errorMessageKey(error.code), { code: error.code })}</p>
      {error.code === 'provider_rate_limited' && wait > 0 && (
        <p className="turn-error-wait">{t('chat.retryIn', { seconds: wait })}</p>
      )}
      <p className="error-detail">{error.message}</p>
      <div className="turn-error-actions">
        {onRetry !== null && (
          <button type="button" className="button button-primary" onClick={onRetry} disabled={retrying || wait > 0}>
            {wait > 0 ? t('chat.retryAfter', { seconds: wait }) : t('chat.retry')}
          </button>
        )}
        {fixedInProviderSettings(error.code) && (
          <button type="button" className="button" onClick={providersActions.openDialog}>
            {error.code === 'provider_not_configured' ? t('chat.setUpProvider') : t('chat.openProviderSettings')}
          </button>
        )}
        {error.code === 'context_too_long' && (
          <button type="button" className="button" onClick={() => void conversationsActions.create()}>
            {t('conversations.new')}
          </button>
        )}
      </div>
    </div>
  );
}
