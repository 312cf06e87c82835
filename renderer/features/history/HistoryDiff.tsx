import { FormError } from '../../app/FormError';
import { LazyCodeView } from '../../code-view/LazyCodeView';
import { useI18nStore, useT } from '../../i18n/i18n';
import { familiar } from '../../ipc/familiar';
import { useSettingsStore } from '../settings/settings-store';
import { useResolvedTheme } from '../settings/apply-appearance';
import { historyActions, useHistoryStore } from './history-store';
import { formatVersionTime } from './HistoryVersionList';
import { useStoreFields } from '../../app/use-store-fields';

const ignore = () => undefined;

/** A short fingerprint of the current text: the editor is rebuilt when the file changes under it. */
function textKey(text: string): string {
  let hash = 0;
  for (let index = 0; index < text.length; index++) hash = (hash * 31 + text.charCodeAt(index)) | 0;
  return `${text.length}:${hash}`;
}

/** The chosen version (left) against the file now (right), read-only, and the Revert button. */
export function HistoryDiff() {
  const t = useT();
  const locale = useI18nStore((state) => state.locale);
  const theme = useResolvedTheme();
  const { file, selected, current, reverting, revert } = useStoreFields(
    ['file', 'selected', 'current', 'reverting', 'revert'],
    useHistoryStore,
  );
  const memoryOn = useSettingsStore((state) => state.settings?.memory.enabled !== false);
  if (selected === null) return <p className="muted">{t('history.selectVersion')}</p>;
  // Main refuses the revert too (history-handlers); the button says so before anyone tries.
  const readOnly = file !== 'SOUL.md' && !memoryOn;
  const same = selected.text === current;
  const time = formatVersionTime(selected.at, locale);
  return (
    <section className="history-diff" aria-label={t('history.diffLabel', { file, time })}>
      <div className="history-diff-toolbar">
        <span className="muted">{same ? t('history.sameAsNow') : t('history.diffHint', { time })}</span>
        <button
          type="button"
          className="button button-primary"
          disabled={readOnly || same || reverting}
          onClick={() => void historyActions.revert(familiar)}
        >
          {reverting ? t('history.reverting') : t('history.revert')}
        </button>
      </div>
      {readOnly && (
        <p className="form-warning" role="note">
          {t('history.readOnly', { file })}
        </p>
      )}
      {revert !== null &&
        (revert.ok ? (
          <p className="form-ok" role="status">
            {t('history.reverted')}
          </p>
        ) : (
          <FormError message={t('history.revertFailed', { message: revert.error.message })} />
        ))}
      <LazyCodeView
        key={`${selected.id}/${textKey(current)}`}
        kind="diff"
        modelKey={`history-${selected.id}`}
        path={file}
        original={selected.text}
        modified={current}
        layout="side-by-side"
        editable={false}
        theme={theme}
        label={t('history.diffLabel', { file, time })}
        onModifiedChange={ignore}
        onSubmit={ignore}
      />
    </section>
  );
}
