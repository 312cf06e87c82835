import { useState } from 'react';
import { FormError } from '../../app/FormError';
import { envNameSchema } from '../../../shared/settings';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { settingsActions } from './settings-store';
import { SettingsPartSection } from './SettingsSection';

/** "GH_TOKEN, DATABASE_URL" or one per line → the names; invalid ones are reported, not saved. */
function parseNames(text: string): { names: string[]; invalid: string[] } {
  const words = text.split(/[\s,;]+/).filter((word) => word !== '');
  const names = [...new Set(words.filter((word) => envNameSchema.safeParse(word).success))];
  return { names, invalid: words.filter((word) => !envNameSchema.safeParse(word).success) };
}

function PassEnvironmentField({ value }: { readonly value: readonly string[] }) {
  const t = useT();
  const [text, setText] = useState(value.join(' '));
  const [invalid, setInvalid] = useState<string[]>([]);
  const commit = () => {
    const parsed = parseNames(text);
    setInvalid(parsed.invalid);
    if (parsed.invalid.length > 0) return;
    if (parsed.names.join(' ') !== value.join(' ')) {
      void settingsActions.update(familiar, { commands: { passEnvironment: parsed.names } });
    }
  };
  return (
    <div className="field-column">
      <label htmlFor="settings-pass-env">{t('settings.passEnvironment')}</label>
      <input
        id="settings-pass-env"
        className="input"
        type="text"
        spellCheck={false}
        autoComplete="off"
        placeholder="GH_TOKEN DATABASE_URL"
        value={text}
        aria-invalid={invalid.length > 0}
        aria-describedby="settings-pass-env-explain"
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
        }}
      />
      <FormError
        inline
        message={invalid.length > 0 && t('settings.passEnvironmentInvalid', { names: invalid.join(', ') })}
      />
    </div>
  );
}

/** Which environment variables commands and git see beyond the safe minimum. */
export function CommandsSection() {
  return (
    <SettingsPartSection part="commands" id="settings-commands" titleKey="settings.commands">
      {(commands, t) => (
        <>
          <PassEnvironmentField key={commands.passEnvironment.join(' ')} value={commands.passEnvironment} />
          <p className="muted" id="settings-pass-env-explain">
            {t('settings.passEnvironmentExplain')}
          </p>
        </>
      )}
    </SettingsPartSection>
  );
}
