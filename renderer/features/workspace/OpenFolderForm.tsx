import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { FormError } from '../../app/FormError';
import type { FamiliarError } from '../../../shared/errors';
import { useAppStore } from '../../app/app-store';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { workspaceActions } from './workspace-store';

interface OpenFolderFormProps {
  readonly onOpened?: () => void;
  /** Shown because the user asked for it (Open folder…): typing can start at once. */
  readonly autoFocus?: boolean;
}

/**
 * A folder by its typed path: all browser mode can do. The desktop app adds its native folder
 * dialog (workspace.chooseFolder) in front; the typed path stays for pasting one.
 */
export function OpenFolderForm({ onOpened, autoFocus = false }: OpenFolderFormProps) {
  const t = useT();
  const mode = useAppStore((state) => state.info?.mode);
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
  const choose = async () => {
    setBusy(true);
    const result = await familiar.invoke('workspace.chooseFolder', {});
    setBusy(false);
    setError(result.ok ? null : result.error);
    if (result.ok && result.value.path !== null) onOpened?.();
  };
  return (
    <form className="open-folder" onSubmit={(event) => void submit(event)}>
      {mode === 'desktop' && (
        <button type="button" className="button" disabled={busy} onClick={() => void choose()}>
          {t('workspace.chooseFolder')}
        </button>
      )}
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
          autoFocus={autoFocus}
        />
        <button type="submit" className="button" disabled={busy || path.trim() === ''}>
          {t('workspace.open')}
        </button>
      </div>
      {error !== null && (
        <FormError
          id={`${id}-error`}
          message={t(
            `workspace.openError.${error.code === 'file_not_found' || error.code === 'not_a_directory' || error.code === 'permission_denied' || error.code === 'invalid_path' ? error.code : 'other'}`,
            { message: error.message },
          )}
        />
      )}
    </form>
  );
}
