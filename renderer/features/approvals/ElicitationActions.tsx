import type { ApprovalRequest } from '../../../shared/ipc/approvals';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { useStoreFields } from '../../app/use-store-fields';
import { Button } from '../../app/Button';
import { elicitationContent } from '../../../shared/elicitation-answer';
import { approvalsActions, useApprovalsStore } from './approvals-store';

/**
 * A server's question has three answers: send the form (or open the page), decline, or cancel
 * (close it unanswered). The page opens in the system browser only here, on the user's click:
 * a new window leaves the app (the desktop shell hands it to the browser).
 */
export function ElicitationActions({
  request,
  elicitation,
}: {
  readonly request: ApprovalRequest;
  readonly elicitation: NonNullable<ApprovalRequest['elicitation']>;
}) {
  const t = useT();
  const { draft, sending } = useStoreFields(['draft', 'sending'], useApprovalsStore);
  const problems = elicitation.mode === 'form' ? elicitationContent(elicitation.fields, draft.fields).problems : [];
  const accept = () => {
    if (elicitation.mode === 'url' && elicitation.url !== undefined) {
      window.open(elicitation.url, '_blank', 'noopener,noreferrer');
    }
    void approvalsActions.approve(familiar);
  };
  return (
    <div className="approval-actions" data-request={request.id}>
      {problems.length > 0 && (
        <p className="muted" role="status">
          {t('approval.elicitation.missing', { fields: problems.join(', ') })}
        </p>
      )}
      <div className="dialog-actions">
        <Button onClick={() => void approvalsActions.dismiss(familiar)} disabled={sending}>
          {t('approval.elicitation.dismiss')}
        </Button>
        <Button onClick={() => void approvalsActions.reject(familiar)} disabled={sending}>
          {t('approval.elicitation.decline')}
        </Button>
        <Button look="primary" onClick={accept} disabled={sending || problems.length > 0}>
          {elicitation.mode === 'url'
            ? t('approval.elicitation.open', { host: elicitation.host ?? '' })
            : t('approval.elicitation.send')}
        </Button>
      </div>
    </div>
  );
}
