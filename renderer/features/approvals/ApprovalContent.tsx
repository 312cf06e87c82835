import { useEffect, useRef } from 'react';
import { FormError } from '../../app/FormError';
import type { ApprovalRequest } from '../../../shared/ipc/approvals';
import { useT } from '../../i18n/i18n';
import { ApprovalActions } from './ApprovalActions';
import { ApprovalConfinement } from './ApprovalConfinement';
import { ApprovalDiff } from './ApprovalDiff';
import { ApprovalFacts } from './ApprovalFacts';
import { ApprovalElicitation } from './ApprovalElicitation';
import { ApprovalMcpCall } from './ApprovalMcpCall';
import { ApprovalSampling } from './ApprovalSampling';
import { ApprovalOperationSummary } from './ApprovalOperationSummary';
import { ApprovalQueueCounter } from './ApprovalQueueCounter';
import { ApprovalWarnings } from './ApprovalWarnings';
import { PromptPreview } from './PromptPreview';
import { ApprovalFilesDiff } from './ApprovalFilesDiff';
import { hasDiff, hasFiles } from './approval-queue';
import { useApprovalsStore } from './approvals-store';
import { RejectForm } from './RejectForm';
import { ElicitationActions } from './ElicitationActions';

/** One request: what it is, why to look twice, the change itself, and the answers. */
export function ApprovalContent({ request }: { readonly request: ApprovalRequest }) {
  const t = useT();
  const rejecting = useApprovalsStore((state) => state.draft.rejecting);
  const error = useApprovalsStore((state) => state.error);
  const title = useRef<HTMLHeadingElement>(null);

  // Start on the title, not on a button: a stray Enter must not approve anything. The Modal focuses
  // it when it opens (data-autofocus); this does when the next request replaces this one.
  useEffect(() => title.current?.focus(), []);

  return (
    <div className="approval">
      <header className="approval-header">
        <h2 id="approval-title" ref={title} tabIndex={-1} data-autofocus>
          {t('approval.title')}
          {request.persona && <span className="badge badge-persona">{t('approval.personaBadge')}</span>}
        </h2>
        <ApprovalQueueCounter />
      </header>
      <p id="approval-summary" className="approval-summary">
        {request.summary}
      </p>
      <ApprovalWarnings warnings={request.warnings} />
      <ApprovalConfinement request={request} />
      <ApprovalFacts request={request} />
      {request.elicitation !== undefined ? (
        <ApprovalElicitation elicitation={request.elicitation} />
      ) : request.sampling !== undefined ? (
        <ApprovalSampling sampling={request.sampling} />
      ) : request.mcp !== undefined ? (
        <ApprovalMcpCall mcp={request.mcp} />
      ) : hasFiles(request) && request.files !== undefined ? (
        <ApprovalFilesDiff request={request} files={request.files} />
      ) : hasDiff(request) ? (
        <ApprovalDiff request={request} />
      ) : request.network?.kind === 'mcp-server' ? null : (
        // An MCP server's host: the facts above say it all (server, host); nothing is run or written.
        <ApprovalOperationSummary request={request} />
      )}
      {request.promptPreview !== undefined && <PromptPreview text={request.promptPreview} />}
      <FormError message={error !== null && t('approval.answerFailed', { message: error.message })} />
      {request.elicitation !== undefined ? (
        <ElicitationActions request={request} elicitation={request.elicitation} />
      ) : rejecting ? (
        <RejectForm />
      ) : (
        <ApprovalActions request={request} />
      )}
    </div>
  );
}
