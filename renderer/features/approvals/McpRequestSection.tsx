import type { ReactNode } from 'react';
import { useT } from '../../i18n/i18n';

/**
 * What a request of the user's MCP server will do (a tool call, a question, a request for the
 * model): a section whose facts name the server first, then the request's own facts, then its body.
 */
export function McpRequestSection({
  className,
  server,
  facts,
  children,
}: {
  readonly className: string;
  readonly server: string;
  readonly facts?: ReactNode;
  readonly children: ReactNode;
}) {
  const t = useT();
  return (
    <section className={`approval-operation ${className}`} aria-label={t('approval.whatHappens')}>
      <dl className="facts">
        <div className="facts-row">
          <dt>{t('approval.mcpServer')}</dt>
          <dd>{server}</dd>
        </div>
        {facts}
      </dl>
      {children}
    </section>
  );
}
