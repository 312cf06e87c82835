import type { ToolInfo } from '../../../shared/ipc/assistant';
import { useT } from '../../i18n/i18n';
import { DecisionBadge } from './DecisionBadge';

/** One registered tool: what it does and, per operation, the policy rows that decide it (first match wins). */
export function ToolCard({ tool }: { readonly tool: ToolInfo }) {
  const t = useT();
  return (
    <li className="tool-card" data-testid="tool-card" aria-labelledby={`tool-${tool.name}`}>
      <div className="tool-card-title">
        <code id={`tool-${tool.name}`}>{tool.name}</code>
        {tool.memoryOnly && <span className="badge">{t('tools.memoryOnly')}</span>}
      </div>
      <p className="muted">{tool.description}</p>
      <dl className="tool-operations">
        {tool.operations.map(({ operation, rules }) => (
          <div key={operation} className="tool-operation">
            <dt>{t(`operation.${operation}`)}</dt>
            <dd>
              <ul className="rule-list">
                {rules.map((rule) => (
                  <li key={`${rule.pattern}-${rule.decision}`}>
                    <code>{rule.pattern}</code> <DecisionBadge decision={rule.decision} />
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        ))}
      </dl>
    </li>
  );
}
