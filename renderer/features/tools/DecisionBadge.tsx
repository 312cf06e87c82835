import type { PolicyDecision } from '../../../shared/policy';
import { useT } from '../../i18n/i18n';

export function DecisionBadge({ decision }: { readonly decision: PolicyDecision }) {
  const t = useT();
  return <span className={`badge badge-decision badge-${decision}`}>{t(`decision.${decision}`)}</span>;
}
