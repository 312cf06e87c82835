import { useEffect, useRef } from 'react';
import { useFocusTrap } from '../../app/use-focus-trap';
import { useT } from '../../i18n/i18n';
import { familiar } from '../../ipc/familiar';
import { PersonaFileMeter } from '../settings/PersonaFilesSection';
import { personaActions, usePersonaStore } from '../settings/persona-store';
import { historyActions, personaFiles, useHistoryStore } from './history-store';
import { HistoryDiff } from './HistoryDiff';
import { HistoryVersionList } from './HistoryVersionList';
import './history.css';

/** The chosen file's meter: size, tokens and cap, and a warning when the prompt gets only part of it. */
function FileMeter() {
  const file = useHistoryStore((state) => state.file);
  const info = usePersonaStore((state) => state.info?.files.find((candidate) => candidate.name === file));
  useEffect(() => personaActions.follow(familiar), []);
  return info === undefined ? null : (
    <ul className="persona-files history-meter">
      <PersonaFileMeter file={info} />
    </ul>
  );
}

/**
 * The History panel: versions of SOUL.md, USER.md and MEMORY.md with a diff against the file now
 * and one-click revert. A native modal <dialog> like Settings; its content mounts only while open.
 */
export function HistoryDialog() {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const open = useHistoryStore((state) => state.open);
  const file = useHistoryStore((state) => state.file);
  const error = useHistoryStore((state) => state.error);
  useFocusTrap(ref, open);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  useEffect(() => (open ? historyActions.connect(familiar) : undefined), [open]);

  return (
    <dialog ref={ref} className="dialog history-dialog" aria-labelledby="history-title" onClose={historyActions.hide}>
      <div className="settings-header">
        <h2 id="history-title">{t('history.title')}</h2>
        <button type="button" className="button" onClick={historyActions.hide} autoFocus>
          {t('history.close')}
        </button>
      </div>
      {open && (
        <div className="history-body">
          <div role="group" aria-label={t('history.files')} className="segmented">
            {personaFiles.map((name) => (
              <button
                key={name}
                type="button"
                className="button button-small"
                aria-pressed={name === file}
                onClick={() => historyActions.chooseFile(familiar, name)}
              >
                {name}
              </button>
            ))}
          </div>
          <FileMeter />
          {error !== null && (
            <p className="form-error" role="alert">
              {t('history.loadFailed', { message: error.message })}
            </p>
          )}
          <div className="history-columns">
            <HistoryVersionList />
            <HistoryDiff />
          </div>
        </div>
      )}
    </dialog>
  );
}
