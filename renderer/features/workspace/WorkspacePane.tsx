import { useEffect } from 'react';
import { Button } from '../../app/Button';
import { FormError } from '../../app/FormError';
import { useAppStore } from '../../app/app-store';
import type { PanelPlacement } from '../../app/layout-plan';
import { layoutActions } from '../../app/layout-store';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { OpenFolderForm } from './OpenFolderForm';
import { WorkspaceTree } from './WorkspaceTree';
import { useWorkspaceStore, workspaceActions } from './workspace-store';
import { useStoreFields } from '../../app/use-store-fields';
import './workspace.css';

export function WorkspacePane({ placement }: { readonly placement: PanelPlacement }) {
  const t = useT();
  const workspacePath = useAppStore((state) => state.info?.workspacePath);
  const { showIgnored, choosingFolder, folderError, searchIndex } = useStoreFields(
    ['showIgnored', 'choosingFolder', 'folderError', 'searchIndex'],
    useWorkspaceStore,
  );
  const mode = useAppStore((state) => state.info?.mode);
  const building =
    searchIndex !== null &&
    searchIndex.root === workspacePath &&
    searchIndex.state !== 'ready' &&
    searchIndex.state !== 'idle'
      ? searchIndex
      : null;

  useEffect(() => {
    if (workspacePath !== undefined) void workspaceActions.openRoot(familiar, workspacePath);
  }, [workspacePath]);

  return (
    <aside
      id="workspace-pane"
      className={placement === 'overlay' ? 'workspace-pane panel-overlay panel-overlay-start' : 'workspace-pane'}
      aria-labelledby="workspace-title"
      // Collapsed, not unmounted: the tree keeps its place and keeps following the folder.
      hidden={placement === 'collapsed'}
      onKeyDown={(event) => {
        if (placement === 'overlay' && event.key === 'Escape' && !event.defaultPrevented) layoutActions.closeOverlay();
      }}
    >
      <div className="pane-header">
        <h2 id="workspace-title" className="pane-title">
          {t('workspace.title')}
        </h2>
        <div className="pane-actions">
          <Button
            look="small"
            aria-pressed={!showIgnored}
            onClick={() => workspaceActions.setShowIgnored(!showIgnored)}
            title={t('workspace.hideIgnoredHint')}
          >
            {t('workspace.hideIgnored')}
          </Button>
          <Button
            look="small"
            aria-expanded={mode === 'desktop' ? undefined : choosingFolder}
            aria-keyshortcuts="Control+O Meta+O"
            onClick={() =>
              choosingFolder
                ? workspaceActions.setChoosingFolder(false)
                : void workspaceActions.chooseFolder(familiar, mode)
            }
          >
            {t('workspace.openFolder')}
          </Button>
        </div>
      </div>
      <p className="workspace-path" title={workspacePath} data-testid="workspace-path">
        <span className="visually-hidden">{t('workspace.path')}: </span>
        {workspacePath}
      </p>
      {choosingFolder && <OpenFolderForm onOpened={() => workspaceActions.setChoosingFolder(false)} autoFocus />}
      <FormError message={folderError !== null && t('workspace.openError.other', { message: folderError.message })} />
      {building !== null && (
        <p className="muted workspace-index-status" role="status" data-testid="search-index-status">
          {building.state === 'embedding' && building.vectors !== undefined
            ? t('workspace.searchEmbedding', { done: building.vectors.embedded, total: building.vectors.chunks })
            : t('workspace.searchIndexing', { done: building.filesChecked, total: building.filesFound })}
        </p>
      )}
      <WorkspaceTree />
    </aside>
  );
}
