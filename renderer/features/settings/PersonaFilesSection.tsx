import { useEffect } from 'react';
import { useFormatNumber } from '../../format/format-number';
import { FormError } from '../../app/FormError';
import type { PersonaFileInfo } from '../../../shared/ipc/assistant';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { personaActions, usePersonaStore } from './persona-store';
import { PromptCapsFields } from './PromptCapsFields';
import { SettingsSection } from './SettingsSection';
import { useStoreFields } from '../../app/use-store-fields';

export function PersonaFileMeter({ file }: { readonly file: PersonaFileInfo }) {
  const t = useT();
  const number = useFormatNumber();
  const truncated = file.omittedChars > 0;
  return (
    <li className="persona-file" data-testid="persona-file">
      <div className="persona-file-title">
        <strong>{file.name}</strong>
        {!file.exists && <span className="badge">{t('persona.missing')}</span>}
        {!file.inPrompt && <span className="badge">{t('persona.hiddenByMemory')}</span>}
      </div>
      <div className="path">{file.path}</div>
      <label className="meter-label">
        <span>
          {t('persona.meter', {
            chars: number(file.chars),
            cap: number(file.cap),
            tokens: number(file.tokens),
          })}
        </span>
        <meter min={0} max={file.cap} high={file.cap * 0.9} optimum={0} value={Math.min(file.chars, file.cap)} />
      </label>
      {truncated && (
        <p className="form-warning" role="alert">
          {t('persona.truncated', { omitted: number(file.omittedChars), included: number(file.includedChars) })}
        </p>
      )}
    </li>
  );
}

/** Where each persona file lives and how much of it the model sees: never a silent truncation. */
export function PersonaFilesSection() {
  const t = useT();
  const { info, error } = useStoreFields(['info', 'error'], usePersonaStore);
  const formatNumber = useFormatNumber();
  useEffect(() => personaActions.follow(familiar), []);
  return (
    <SettingsSection id="settings-persona" title={t('persona.title')}>
      <p className="muted">{t('persona.explain')}</p>
      <FormError message={error?.message} />
      {info !== null && (
        <>
          <ul className="persona-files">
            {info.files.map((file) => (
              <PersonaFileMeter key={file.name} file={file} />
            ))}
          </ul>
          <dl className="facts">
            <dt>{t('persona.dailyNotes')}</dt>
            <dd className="path">{info.dailyNotesDir}</dd>
            <dt>{t('persona.totalCap')}</dt>
            <dd>{formatNumber(info.totalCap)}</dd>
          </dl>
          <PromptCapsFields />
        </>
      )}
    </SettingsSection>
  );
}
