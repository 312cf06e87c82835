import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import type { FamiliarError } from '../../../shared/errors';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { workspaceActions } from './workspace-store';

interface OpenFolderFormProps {
  readonly onOpened?: () => void;
}

/**
 * Browser mode chooses a folder by typing its path. The desktop app will add a native folder dialog
 * beside this field: main's WorkspaceService.open() is the hook it calls with the chosen path.
 */
export function OpenFolderForm({ onOpened }: OpenFolderFormProps) {
  const t = useT();
  const [path, setPath] = useState('');
  const [error, setError] = useState<FamiliarError | null>(null);
  const [busy, setBusy] = useState(false);
  // Two of these can be on screen at once (the tree's and the settings'): ids must differ.
  const id = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (path.trim() === '') return;
    setBusy(true);
    const failure = await workspaceActions.openFolder(familiar, path.trim());
    setBusy(false);
    setError(failure);
    if (failure === null) {
      setPath('');
      onOpened?.();
    }
  };
  return (
    <form className="open-folder" onSubmit={(event) => void submit(event)}>
      <label htmlFor={`${id}-path`}>{t('workspace.folderPath')}</label>
      <div className="inline-form">
        <input
          id={`${id}-path`}
          className="input"
          value={path}
          onChange={(event) => setPath(event.target.value)}
          placeholder={t('workspace.folderPlaceholder')}
          aria-invalid={error !== null}
          aria-describedby={error === null ? undefined : `${id}-error`}
          spellCheck={false}
        />
        <button type="submit" className="button" disabled={busy || path.trim() === ''}>
          {t('workspace.open')}
        </button>
      </div>
      {error !== null && (
        <p id={`${id}-error`} className="form-error" role="alert">
          {t(
            `workspace.openError.${error.code === 'file_not_found' || error.code === 'not_a_directory' || error.code === 'permission_denied' || error.code === 'invalid_path' ? error.code : 'other'}`,
            { message: error.message },
          )}
        </p>
      )}
    </form>
  );
}
