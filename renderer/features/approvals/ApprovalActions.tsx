import type { ApprovalRequest } from '../../../shared/ipc/approvals';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { hasDiff, hostSpanOf } from './approval-queue';
import type { HostSpan } from './approval-queue';
import { approvalsActions, useApprovalsStore } from './approvals-store';
import { useStoreFields } from '../../app/use-store-fields';
import { Button } from '../../app/Button';

const hostSpans: readonly HostSpan[] = ['once', 'conversation', 'workspace'];
/** An MCP server's host: this request, or always for that server (its "always" rides "workspace"). */
const serverHostSpans: readonly HostSpan[] = ['once', 'workspace'];
const mcpSpans = { once: 'once', conversation: 'conversation', workspace: 'always' } as const;

export function ApprovalActions({ request }: { readonly request: ApprovalRequest }) {
  const t = useT();
  const { draft, sending } = useStoreFields(['draft', 'sending'], useApprovalsStore);
  return (
    <div className="approval-actions">
      {request.mcp !== undefined ? (
        <SpanChoice
          name="approval-mcp-span"
          legend={t('approval.mcpSpan', { tool: `${request.mcp.server} → ${request.mcp.tool}` })}
          label={(span) => t(`approval.mcpSpan.${mcpSpans[span]}`)}
        />
      ) : request.network?.kind === 'mcp-server' ? (
        <SpanChoice
          name="approval-server-host-span"
          legend={t('approval.serverHostSpan', {
            server: request.network.server ?? '',
            host: `${request.network.host}:${request.network.port}`,
          })}
          spans={serverHostSpans}
          label={(span) => t(span === 'once' ? 'approval.serverHostSpan.once' : 'approval.serverHostSpan.always')}
        />
      ) : request.network !== undefined ? (
        <SpanChoice
          name="approval-host-span"
          legend={t('approval.hostSpan', { host: `${request.network.host}:${request.network.port}` })}
          label={(span) =>
            t(request.network?.kind === 'web' ? `approval.hostSpan.web.${span}` : `approval.hostSpan.${span}`)
          }
        />
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
        <Button onClick={approvalsActions.startRejecting} aria-keyshortcuts="Escape" disabled={sending}>
          {t('approval.reject')}
        </Button>
        {hasDiff(request) &&
          (draft.editing ? (
            <Button onClick={approvalsActions.stopEditing} disabled={sending}>
              {t('approval.discardEdits')}
            </Button>
          ) : (
            <Button onClick={approvalsActions.startEditing} disabled={sending}>
              {t('approval.edit')}
            </Button>
          ))}
        <Button
          look="primary"
          onClick={() => void approvalsActions.approve(familiar)}
          aria-keyshortcuts="Control+Enter Meta+Enter"
          disabled={sending}
        >
          {t(draft.editing ? 'approval.approveEdited' : 'approval.approve')}
        </Button>
      </div>
    </div>
  );
}

/** How long an allowance holds (once, this conversation, always): one radio group, its words per kind. */
function SpanChoice(props: {
  readonly name: string;
  readonly legend: string;
  readonly label: (span: HostSpan) => string;
  readonly spans?: readonly HostSpan[];
}) {
  const { draft } = useStoreFields(['draft'], useApprovalsStore);
  return (
    <fieldset className="approval-host-span">
      <legend>{props.legend}</legend>
      {(props.spans ?? hostSpans).map((span) => (
        <label key={span} className="checkbox">
          <input
            type="radio"
            name={props.name}
            value={span}
            checked={hostSpanOf(draft) === span}
            onChange={() => approvalsActions.setHostSpan(span)}
          />
          {props.label(span)}
        </label>
      ))}
    </fieldset>
  );
}
