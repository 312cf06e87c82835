import { useAppStore } from '../../app/app-store';
import { useT } from '../../i18n/i18n';
import { OpenFolderForm } from '../workspace/OpenFolderForm';

export function WorkspaceFolderSection() {
  const t = useT();
  const workspacePath = useAppStore((state) => state.info?.workspacePath);
  return (
    <section className="settings-section" aria-labelledby="settings-workspace">
      <h3 id="settings-workspace">{t('settings.workspace')}</h3>
      <p className="path">{workspacePath}</p>
      <OpenFolderForm />
    </section>
  );
}
