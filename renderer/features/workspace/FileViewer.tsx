import { CloseButton } from '../../app/CloseButton';
import { FormError } from '../../app/FormError';
import { LazyCodeView } from '../../code-view/LazyCodeView';
import { formatBytes } from '../../format/format-bytes';
import { useI18nStore, useT } from '../../i18n/i18n';
import { useResolvedTheme } from '../settings/apply-appearance';
import { useWorkspaceStore, workspaceActions } from './workspace-store';

/** A read-only look at one workspace file, beside the chat; follows the file as it changes on disk. */
export function FileViewer({ placement = 'docked' }: { readonly placement?: 'docked' | 'overlay' }) {
  const t = useT();
  const locale = useI18nStore((state) => state.locale);
  const viewer = useWorkspaceStore((state) => state.viewer);
  const theme = useResolvedTheme();
  if (viewer === null) return null;
  return (
    <section
      id="file-viewer"
      // In a narrow window the file floats over the chat (Esc or × puts it away) instead of squeezing it.
      className={placement === 'overlay' ? 'file-viewer panel-overlay panel-overlay-end' : 'file-viewer'}
      aria-label={t('viewer.label', { path: viewer.path })}
      onKeyDown={(event) => {
        if (event.key === 'Escape') workspaceActions.closeFile();
      }}
    >
      <header className="file-viewer-header">
        <h2 className="file-viewer-path path" data-testid="viewer-path">
          {viewer.path}
        </h2>
        {viewer.file !== null && <span className="muted">{formatBytes(viewer.file.size, locale)}</span>}
        <span className="badge">{t('viewer.readOnly')}</span>
        <CloseButton look="small" label={t('viewer.close')} onClick={workspaceActions.closeFile} />
      </header>
      {viewer.status === 'error' && viewer.error !== null && (
        <FormError
          message={t(
            `viewer.error.${viewer.error.code === 'binary_file' || viewer.error.code === 'file_too_large' || viewer.error.code === 'encoding_error' || viewer.error.code === 'file_not_found' ? viewer.error.code : 'other'}`,
            { message: viewer.error.message },
          )}
        />
      )}
      {viewer.status === 'loading' && viewer.file === null && <p role="status">{t('viewer.loading')}</p>}
      {viewer.file !== null && (
        <LazyCodeView
          kind="file"
          path={viewer.file.path}
          text={viewer.file.text}
          theme={theme}
          label={t('viewer.label', { path: viewer.path })}
        />
      )}
    </section>
  );
}
