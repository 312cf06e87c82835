import { useEffect } from 'react';
import { FormError } from '../../app/FormError';
import { Modal } from '../../app/Modal';
import { Segmented } from '../../app/Segmented';
import { useStoreFields } from '../../app/use-store-fields';
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
 * and one-click revert. A Modal like Settings; its content mounts only while open.
 */
export function HistoryDialog() {
  const t = useT();
  const { open, file, error } = useStoreFields(['open', 'file', 'error'], useHistoryStore);
  useEffect(() => (open ? historyActions.connect(familiar) : undefined), [open]);

  return (
    <Modal
      open={open}
      onClose={historyActions.hide}
      title={t('history.title')}
      closeLabel={t('history.close')}
      className="history-dialog"
    >
      <div className="history-body">
        <Segmented
          label={t('history.files')}
          options={personaFiles}
          value={file}
          optionLabel={(name) => name}
          onChoose={(name) => historyActions.chooseFile(familiar, name)}
        />
        <FileMeter />
        <FormError message={error !== null && t('history.loadFailed', { message: error.message })} />
        <div className="history-columns">
          <HistoryVersionList />
          <HistoryDiff />
        </div>
      </div>
    </Modal>
  );
}
