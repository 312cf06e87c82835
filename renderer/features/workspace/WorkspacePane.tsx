import { useAppStore } from '../../app/app-store';
import { useT } from '../../i18n/i18n';

export function WorkspacePane() {
  const t = useT();
  const workspacePath = useAppStore((state) => state.info?.workspacePath);
  return (
    <aside className="workspace-pane" aria-labelledby="workspace-title">
      <h2 id="workspace-title" className="pane-title">
        {t('workspace.title')}
      </h2>
      <p className="workspace-path" title={workspacePath} data-testid="workspace-path">
        <span className="visually-hidden">{t('workspace.path')}: </span>
        {workspacePath}
      </p>
    </aside>
  );
}
