import type { ReactNode } from 'react';
import { FactsRow } from '../../app/FactsRow';
import { useT } from '../../i18n/i18n';

/**
 * What a request of the user's MCP server will do (a tool call, a question, a request for the
 * model): a section whose facts name the server first, then the request's own facts (term and value
 * each), then its body.
 */
export function McpRequestSection({
  className,
  server,
  facts = [],
  children,
}: {
  readonly className: string;
  readonly server: string;
  readonly facts?: readonly (readonly [term: string, value: ReactNode])[];
  readonly children: ReactNode;
}) {
  const t = useT();
  return (
    <section className={`approval-operation ${className}`} aria-label={t('approval.whatHappens')}>
      <dl className="facts">
        <FactsRow term={t('approval.mcpServer')}>{server}</FactsRow>
        {facts.map(([term, value]) => (
          <FactsRow key={term} term={term}>
            {value}
          </FactsRow>
        ))}
      </dl>
      {children}
    </section>
  );
}
