import type { ApprovalRequest } from '../../../shared/ipc/approvals';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { hasDiff, hostSpanOf } from './approval-queue';
import type { HostSpan } from './approval-queue';
import { approvalsActions, useApprovalsStore } from './approvals-store';
import { useStoreFields } from '../../app/use-store-fields';

const hostSpans: readonly HostSpan[] = ['once', 'conversation', 'workspace'];
const mcpSpans = { once: 'once', conversation: 'conversation', workspace: 'always' } as const;

export function ApprovalActions({ request }: { readonly request: ApprovalRequest }) {
  const t = useT();
  const { draft, sending } = useStoreFields(['draft', 'sending'], useApprovalsStore);
  return (
    <div className="approval-actions">
      {request.mcp !== undefined ? (
        <fieldset className="approval-host-span">
          <legend>{t('approval.mcpSpan', { tool: `${request.mcp.server} → ${request.mcp.tool}` })}</legend>
          {hostSpans.map((span) => (
            <label key={span} className="checkbox">
              <input
                type="radio"
                name="approval-mcp-span"
                value={span}
                checked={hostSpanOf(draft) === span}
                onChange={() => approvalsActions.setHostSpan(span)}
              />
              {t(`approval.mcpSpan.${mcpSpans[span]}`)}
            </label>
          ))}
        </fieldset>
      ) : request.network !== undefined ? (
        <fieldset className="approval-host-span">
          <legend>{t('approval.hostSpan', { host: `${request.network.host}:${request.network.port}` })}</legend>
          {hostSpans.map((span) => (
            <label key={span} className="checkbox">
              <input
                type="radio"
                name="approval-host-span"
                value={span}
                checked={hostSpanOf(draft) === span}
                onChange={() => approvalsActions.setHostSpan(span)}
              />
              {t(request.network?.kind === 'web' ? `approval.hostSpan.web.${span}` : `approval.hostSpan.${span}`)}
            </label>
          ))}
        </fieldset>
      ) : (
        request.canAllowForConversation && (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={draft.allowForConversation}
              onChange={(event) => approvalsActions.setAllowForConversation(event.target.checked)}
            />
            {t('approval.allowForConversation')}
          </label>
        )
      )}
      <div className="dialog-actions">
        <button
          type="button"
          className="button"
          onClick={approvalsActions.startRejecting}
          aria-keyshortcuts="Escape"
          disabled={sending}
        >
          {t('approval.reject')}
        </button>
        {hasDiff(request) &&
          (draft.editing ? (
            <button type="button" className="button" onClick={approvalsActions.stopEditing} disabled={sending}>
              {t('approval.discardEdits')}
            </button>
          ) : (
            <button type="button" className="button" onClick={approvalsActions.startEditing} disabled={sending}>
              {t('approval.edit')}
            </button>
          ))}
        <button
          type="button"
          className="button button-primary"
          onClick={() => void approvalsActions.approve(familiar)}
          aria-keyshortcuts="Control+Enter Meta+Enter"
          disabled={sending}
        >
          {t(draft.editing ? 'approval.approveEdited' : 'approval.approve')}
        </button>
      </div>
    </div>
  );
}
