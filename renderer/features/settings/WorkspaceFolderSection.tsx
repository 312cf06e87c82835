import { useAppStore } from '../../app/app-store';
import { useT } from '../../i18n/i18n';
import { OpenFolderForm } from '../workspace/OpenFolderForm';
import { SettingsSection } from './SettingsSection';

export function WorkspaceFolderSection() {
  const t = useT();
  const workspacePath = useAppStore((state) => state.info?.workspacePath);
  return (
    <SettingsSection id="settings-workspace" title={t('settings.workspace')}>
      <p className="path">{workspacePath}</p>
      <OpenFolderForm />
    </SettingsSection>
  );
}
