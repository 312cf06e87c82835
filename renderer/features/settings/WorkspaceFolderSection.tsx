import { useAppStore } from '../../app/app-store';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { OpenFolderForm } from '../workspace/OpenFolderForm';
import { settingsActions, useSettingsStore } from './settings-store';
import { SettingsSection } from './SettingsSection';
import { SettingTextField } from './SettingTextField';

/** file_semantic_search's embedding model on the configured provider; empty: words alone (BM25). */
function EmbeddingModelField({ value }: { readonly value: string | null }) {
  const t = useT();
  const commit = (text: string) => {
    const next = text.trim() === '' ? null : text.trim();
    if (next !== value) void settingsActions.update(familiar, { search: { embeddingModel: next } });
  };
  return (
    <SettingTextField
      id="settings-embedding-model"
      label={t('settings.embeddingModel')}
      value={value ?? ''}
      placeholder="text-embedding-3-small, nomic-embed-text"
      maxLength={200}
      describedBy="settings-embedding-model-explain"
      onCommit={commit}
    >
      <p className="muted" id="settings-embedding-model-explain">
        {t('settings.embeddingModelExplain')}
      </p>
    </SettingTextField>
  );
}

export function WorkspaceFolderSection() {
  const t = useT();
  const workspacePath = useAppStore((state) => state.info?.workspacePath);
  const embeddingModel = useSettingsStore((state) => state.settings?.search.embeddingModel);
  return (
    <SettingsSection id="settings-workspace" title={t('settings.workspace')}>
      <p className="path">{workspacePath}</p>
      <OpenFolderForm />
      {embeddingModel !== undefined && <EmbeddingModelField key={embeddingModel ?? ''} value={embeddingModel} />}
    </SettingsSection>
  );
}
