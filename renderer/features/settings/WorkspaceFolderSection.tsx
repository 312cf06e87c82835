import { useState } from 'react';
import { useAppStore } from '../../app/app-store';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { OpenFolderForm } from '../workspace/OpenFolderForm';
import { settingsActions, useSettingsStore } from './settings-store';
import { SettingsSection } from './SettingsSection';

/** file_semantic_search's embedding model on the configured provider; empty: words alone (BM25). */
function EmbeddingModelField({ value }: { readonly value: string | null }) {
  const t = useT();
  const [text, setText] = useState(value ?? '');
  const commit = () => {
    const next = text.trim() === '' ? null : text.trim();
    if (next !== value) void settingsActions.update(familiar, { search: { embeddingModel: next } });
  };
  return (
    <div className="field-column">
      <label htmlFor="settings-embedding-model">{t('settings.embeddingModel')}</label>
      <input
        id="settings-embedding-model"
        className="input"
        type="text"
        spellCheck={false}
        autoComplete="off"
        maxLength={200}
        placeholder="text-embedding-3-small, nomic-embed-text"
        value={text}
        aria-describedby="settings-embedding-model-explain"
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
        }}
      />
      <p className="muted" id="settings-embedding-model-explain">
        {t('settings.embeddingModelExplain')}
      </p>
    </div>
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
