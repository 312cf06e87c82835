import { useEffect } from 'react';
import { useFormatNumber } from '../../format/format-number';
import { useT } from '../../i18n/i18n';
import { familiar } from '../../ipc/familiar';
import { personaActions, usePersonaStore } from '../settings/persona-store';
import { historyActions } from './history-store';
import { HistoryDialog } from './HistoryDialog';

/**
 * Never a silent cut: while a persona file is truncated for the prompt, the header says so, and a
 * click opens its history with the meter.
 */
function TruncationWarnings() {
  const t = useT();
  const formatNumber = useFormatNumber();
  // Select the stored array (a fresh filtered one per call would re-render forever), filter after.
  const files = usePersonaStore((state) => state.info?.files);
  const truncated = (files ?? []).filter((file) => file.omittedChars > 0);
  useEffect(() => {
    const stop = personaActions.follow(familiar);
    const stopHistory = familiar.on('history.changed', () => void personaActions.load(familiar));
    return () => {
      stop();
      stopHistory();
    };
  }, []);
  return truncated.map((file) => (
    <button
      key={file.name}
      type="button"
      className="button button-small prompt-truncated"
      role="status"
      data-testid="prompt-truncated"
      title={t('history.truncatedDetail', {
        file: file.name,
        omitted: formatNumber(file.omittedChars),
      })}
      onClick={() => historyActions.show(familiar, file.name)}
    >
      ⚠ {t('history.truncatedBadge', { file: file.name })}
    </button>
  ));
}

/** The header's way into the History panel, with the truncation warnings beside it. */
export function HistoryButton() {
  const t = useT();
  return (
    <>
      <TruncationWarnings />
      <button type="button" className="button" onClick={() => historyActions.show(familiar)}>
        {t('history.button')}
      </button>
      <HistoryDialog />
    </>
  );
}
