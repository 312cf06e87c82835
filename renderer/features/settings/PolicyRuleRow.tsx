import { CloseButton } from '../../app/CloseButton';
import { policyOperations } from '../../../shared/policy';
import type { PolicyDecision } from '../../../shared/policy';
import { useT } from '../../i18n/i18n';
import { policyActions } from './policy-store';
import type { DraftRule } from './policy-store';

interface PolicyRuleRowProps {
  readonly rule: DraftRule;
  readonly index: number;
  readonly count: number;
  /** Local findings for this row, by field ('pattern', 'decisions', 'note'): main has the last word. */
  readonly problems: ReadonlyMap<string, string>;
}

const decisions: readonly PolicyDecision[] = ['allow', 'ask', 'deny'];

export function PolicyRuleRow({ rule, index, count, problems }: PolicyRuleRowProps) {
  const t = useT();
  const row = index + 1;
  const problem = (field: string) => problems.get(`rules.${index}.${field}`);
  return (
    <tr data-testid="policy-row">
      <td className="policy-order">
        <button
          type="button"
          className="button button-small"
          onClick={() => policyActions.moveRule(rule.key, -1)}
          disabled={index === 0}
          aria-label={t('policy.moveUp', { row })}
        >
          ↑
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => policyActions.moveRule(rule.key, 1)}
          disabled={index === count - 1}
          aria-label={t('policy.moveDown', { row })}
        >
          ↓
        </button>
      </td>
      <td>
        <input
          className="input input-mono"
          value={rule.pattern}
          onChange={(event) => policyActions.updateRule(rule.key, { pattern: event.target.value })}
          aria-label={t('policy.patternOf', { row })}
          aria-invalid={problem('pattern') !== undefined}
          title={problem('pattern')}
          spellCheck={false}
        />
      </td>
      {policyOperations.map((operation) => (
        <td key={operation}>
          <select
            className={`select decision-${rule.decisions[operation] ?? 'none'}`}
            value={rule.decisions[operation] ?? ''}
            onChange={(event) =>
              policyActions.setDecision(
                rule.key,
                operation,
                event.target.value === '' ? null : (event.target.value as PolicyDecision),
              )
            }
            aria-label={t('policy.decisionOf', { row, operation: t(`operation.${operation}`) })}
            aria-invalid={problem('decisions') !== undefined}
          >
            <option value="">{t('policy.fallThrough')}</option>
            {decisions.map((decision) => (
              <option key={decision} value={decision}>
                {t(`decision.${decision}`)}
              </option>
            ))}
          </select>
        </td>
      ))}
      <td className="policy-memory">
        <input
          type="checkbox"
          checked={rule.memory}
          onChange={(event) => policyActions.updateRule(rule.key, { memory: event.target.checked })}
          aria-label={t('policy.memoryOf', { row })}
        />
      </td>
      <td>
        <input
          className="input"
          value={rule.note}
          maxLength={500}
          onChange={(event) => policyActions.updateRule(rule.key, { note: event.target.value })}
          aria-label={t('policy.noteOf', { row })}
        />
      </td>
      <td>
        <CloseButton
          look="small"
          label={t('policy.remove', { row })}
          onClick={() => policyActions.removeRule(rule.key)}
        />
      </td>
    </tr>
  );
}
