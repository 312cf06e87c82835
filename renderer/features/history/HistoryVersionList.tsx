import { useFormatNumber } from '../../format/format-number';
import type { VersionSummary } from '../../../shared/ipc/history';
import { useI18nStore, useT } from '../../i18n/i18n';
import { familiar } from '../../ipc/familiar';
import { historyActions, useHistoryStore } from './history-store';
import { useStoreFields } from '../../app/use-store-fields';

export const formatVersionTime = (at: string, locale: string): string =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at));

function VersionRow({ version, selected }: { readonly version: VersionSummary; readonly selected: boolean }) {
  const t = useT();
  const locale = useI18nStore((state) => state.locale);
  const formatNumber = useFormatNumber();
  return (
    <li>
      <button
        type="button"
        className="history-version"
        aria-pressed={selected}
        data-testid="history-version"
        onClick={() => void historyActions.select(familiar, version.id)}
      >
        <span className="history-version-line">
          <time dateTime={version.at}>{formatVersionTime(version.at, locale)}</time>
          <span className={`badge history-author-${version.author}`}>{t(`history.author.${version.author}`)}</span>
        </span>
        <span className="history-version-reason">{version.reason}</span>
        <span className="history-version-line muted">
          {t('history.chars', { chars: formatNumber(version.chars) })}
          {version.conversationId !== undefined && (
            <span title={version.conversationId}>
              {t('history.conversation', { id: version.conversationId.slice(0, 10) })}
            </span>
          )}
        </span>
      </button>
    </li>
  );
}

/** Every kept version of the chosen file, newest first: when, who, from which conversation, why. */
export function HistoryVersionList() {
  const t = useT();
  const { file, versions } = useStoreFields(['file', 'versions'], useHistoryStore);
  const selectedId = useHistoryStore((state) => state.selected?.id ?? null);
  if (versions === null) return <p role="status">{t('history.loading')}</p>;
  if (versions.length === 0) return <p className="muted">{t('history.noVersions')}</p>;
  return (
    <nav className="history-versions" aria-label={t('history.versions', { file })}>
      <ol>
        {versions.map((version) => (
          <VersionRow key={version.id} version={version} selected={version.id === selectedId} />
        ))}
      </ol>
    </nav>
  );
}
