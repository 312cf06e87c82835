import { memo } from 'react';
import type { ToolProgress, ToolResultView } from '../../../shared/ipc/chat';
import type { AssistantPart } from '../../../shared/ipc/conversations';
import { useI18nStore, useT } from '../../i18n/i18n';
import { useChatStore } from './chat-store';
import { resultFacts } from './tool-result-facts';
import { diffStats, UnifiedDiff } from './UnifiedDiff';

type ToolPart = Extract<AssistantPart, { type: 'tool' }>;

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** The path a call is about, when its arguments name one (most file tools do). */
function pathOf(args: unknown): string | undefined {
  const path = record(args)?.['path'];
  return typeof path === 'string' ? path : undefined;
}

/** edit_file (and any tool that wants) returns a unified diff in a `diff` field. */
function diffOf(value: unknown): string | undefined {
  const diff = record(value)?.['diff'];
  return typeof diff === 'string' && diff !== '' ? diff : undefined;
}

/** A summary may start with the error code or the path, which the badge and the path already show. */
function shortSummary(result: ToolResultView, path: string | undefined): string {
  for (const prefix of [result.code, path]) {
    if (prefix !== undefined && result.summary.startsWith(`${prefix}: `))
      return result.summary.slice(prefix.length + 2);
  }
  return result.summary;
}

const pretty = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value));

/** How far a running call is: a bar when the total is known, the tool's own words beside it. */
function ToolProgressLine({ progress }: { readonly progress: ToolProgress }) {
  const t = useT();
  const known = progress.total !== undefined && progress.total > 0;
  const text = known
    ? t('tool.progressOf', { done: progress.done, total: progress.total ?? 0 })
    : t('tool.progressDone', { done: progress.done });
  return (
    <span className="tool-progress" role="status">
      {known && <progress value={progress.done} max={progress.total} aria-hidden="true" />}
      <span className="tool-progress-text">
        {text}
        {progress.message === undefined ? '' : ` · ${progress.message}`}
      </span>
    </span>
  );
}

interface ToolCallCardProps {
  readonly part: ToolPart;
  /** The turn is still running (a missing result is pending, not lost). */
  readonly turnRunning: boolean;
}

/**
 * One tool call, compact: name, path, outcome code and the one-line summary; expands to the
 * arguments and the result (a diff when the result carries one).
 */
export const ToolCallCard = memo(function ToolCallCard({ part, turnRunning }: ToolCallCardProps) {
  const t = useT();
  const locale = useI18nStore((state) => state.locale);
  const awaitingApproval = useChatStore((state) => state.awaitingApproval[part.toolCallId] !== undefined);
  const { result } = part;
  const path = pathOf(part.args);
  const diff = result?.ok === true ? diffOf(result.value) : undefined;
  const stats = diff === undefined ? undefined : diffStats(diff);
  const facts = result?.ok === true && diff === undefined ? resultFacts(result.value, t, locale) : [];

  const outcome =
    result === null
      ? awaitingApproval
        ? { className: 'pending', text: t('tool.awaitingApproval') }
        : turnRunning
          ? { className: 'pending', text: t('tool.running') }
          : { className: 'lost', text: t('tool.noResult') }
      : result.ok
        ? { className: 'ok', text: 'ok' }
        : { className: 'error', text: result.code ?? t('tool.failed') };

  return (
    <details className={`tool-card tool-${outcome.className}`}>
      <summary>
        <span className="tool-name">{part.name}</span>
        {path !== undefined && <span className="tool-path">{path}</span>}
        <span className={`tool-outcome outcome-${outcome.className}`}>{outcome.text}</span>
        {stats !== undefined && (
          <span className="tool-diff-stats" aria-label={t('tool.diffStats', stats)}>
            <span className="diff-add-count">+{stats.added}</span>{' '}
            <span className="diff-del-count">−{stats.removed}</span>
          </span>
        )}
        {result === null && turnRunning && part.progress !== undefined && <ToolProgressLine progress={part.progress} />}
        {/* A diff's counts already say what its summary would. */}
        {result !== null && stats === undefined && <span className="tool-summary">{shortSummary(result, path)}</span>}
      </summary>
      <div className="tool-body">
        {part.approval !== undefined && (
          <p className="tool-approval">
            {t(`tool.approval.${part.approval.decision}`)}
            {part.approval.reason === undefined ? '' : `: ${part.approval.reason}`}
          </p>
        )}
        <h4>{t('tool.arguments')}</h4>
        <pre className="tool-json" tabIndex={0}>
          {part.args === undefined ? '—' : pretty(part.args)}
        </pre>
        {result !== null && (
          <>
            <h4>{t('tool.result')}</h4>
            {diff !== undefined ? (
              <UnifiedDiff diff={diff} />
            ) : facts.length > 0 ? (
              <>
                <dl className="facts tool-facts">
                  {facts.map((fact) => (
                    <div key={fact.label} className="facts-row">
                      <dt>{t(fact.label)}</dt>
                      <dd>{fact.text}</dd>
                    </div>
                  ))}
                </dl>
                <details className="tool-raw">
                  <summary>{t('tool.raw')}</summary>
                  <pre className="tool-json" tabIndex={0}>
                    {pretty(result.value)}
                  </pre>
                </details>
              </>
            ) : (
              <pre className="tool-json" tabIndex={0}>
                {result.value === undefined ? result.summary : pretty(result.value)}
              </pre>
            )}
            {result.truncated === true && <p className="muted">{t('tool.truncated')}</p>}
          </>
        )}
      </div>
    </details>
  );
});
