import type { ApprovalRequest } from '../../../shared/ipc/approvals';
import { useT } from '../../i18n/i18n';
import { confinementFacts } from './ApprovalConfinement';

/** Deletes, moves and commands have no before/after text: say plainly what would happen. */
export function ApprovalOperationSummary({ request }: { readonly request: ApprovalRequest }) {
  const t = useT();
  // Confinement is said in words above (ApprovalConfinement), not as raw facts.
  const facts = Object.entries(request.facts).filter(([name]) => !confinementFacts.has(name));
  return (
    <section className="approval-operation" aria-label={t('approval.whatHappens')}>
      <h3>{t('approval.whatHappens')}</h3>
      <ul className="operation-list">
        {request.operations.map((operation) => (
          <li key={operation}>
            <span className={`badge badge-op badge-op-${operation}`}>{t(`operation.${operation}`)}</span>
          </li>
        ))}
      </ul>
      {facts.length > 0 && (
        <dl className="facts">
          {facts.map(([name, value]) => (
            <div key={name} className="facts-row">
              <dt>{name}</dt>
              <dd className={typeof value === 'string' ? 'path' : undefined}>{String(value)}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
