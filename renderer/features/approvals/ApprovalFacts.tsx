import type { ApprovalRequest } from '../../../shared/ipc/approvals';
import { formatByteDelta, formatBytes } from '../../format/format-bytes';
import { useI18nStore, useT } from '../../i18n/i18n';

/** Where, by which tool, how big a change, and until when the assistant waits. */
export function ApprovalFacts({ request }: { readonly request: ApprovalRequest }) {
  const t = useT();
  const locale = useI18nStore((state) => state.locale);
  const { beforeBytes, afterBytes } = request;
  // A multi-file change is decided on '.' (the workspace); the files it changes say more.
  const paths = request.files?.map((file) => file.path) ?? request.paths;
  const until = new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).format(new Date(request.expiresAt));
  return (
    <dl className="facts approval-facts">
      {request.network?.server !== undefined && (
        <>
          <dt>{t('approval.mcpServer')}</dt>
          <dd data-testid="approval-server">{request.network.server}</dd>
        </>
      )}
      {request.network !== undefined ? (
        <>
          <dt>{t('approval.host')}</dt>
          <dd className="path" data-testid="approval-host">
            {request.network.host}:{request.network.port}
          </dd>
        </>
      ) : paths.length === 0 ? null : (
        <>
          <dt>{t(paths.length > 1 ? 'approval.paths' : 'approval.path')}</dt>
          <dd className="path" data-testid="approval-path">
            {paths.join(', ')}
          </dd>
        </>
      )}
      <dt>{t('approval.tool')}</dt>
      <dd>
        <code>{request.tool}</code>
      </dd>
      {beforeBytes !== undefined && afterBytes !== undefined && (
        <>
          <dt>{t('approval.size')}</dt>
          <dd data-testid="approval-size">
            {formatBytes(beforeBytes, locale)} → {formatBytes(afterBytes, locale)} (
            {formatByteDelta(afterBytes - beforeBytes, locale)})
          </dd>
        </>
      )}
      <dt>{t('approval.waitsUntil')}</dt>
      <dd>
        <time dateTime={request.expiresAt}>{until}</time>
      </dd>
    </dl>
  );
}
