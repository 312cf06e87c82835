import { useState } from 'react';
import { FormError } from '../../app/FormError';
import { envNameSchema } from '../../../shared/settings';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { settingsActions } from './settings-store';
import { SettingsPartSection } from './SettingsSection';
import { SettingTextField } from './SettingTextField';

/** "GH_TOKEN, DATABASE_URL" or one per line → the names; invalid ones are reported, not saved. */
function parseNames(text: string): { names: string[]; invalid: string[] } {
  const words = text.split(/[\s,;]+/).filter((word) => word !== '');
  const names = [...new Set(words.filter((word) => envNameSchema.safeParse(word).success))];
  return { names, invalid: words.filter((word) => !envNameSchema.safeParse(word).success) };
}

function PassEnvironmentField({ value }: { readonly value: readonly string[] }) {
  const t = useT();
  const [invalid, setInvalid] = useState<string[]>([]);
  const commit = (text: string) => {
    const parsed = parseNames(text);
    setInvalid(parsed.invalid);
    if (parsed.invalid.length > 0) return;
    if (parsed.names.join(' ') !== value.join(' ')) {
      void settingsActions.update(familiar, { commands: { passEnvironment: parsed.names } });
    }
  };
  return (
    <SettingTextField
      id="settings-pass-env"
      label={t('settings.passEnvironment')}
      value={value.join(' ')}
      placeholder="GH_TOKEN DATABASE_URL"
      invalid={invalid.length > 0}
      describedBy="settings-pass-env-explain"
      onCommit={commit}
    >
      <FormError
        inline
        message={invalid.length > 0 && t('settings.passEnvironmentInvalid', { names: invalid.join(', ') })}
      />
    </SettingTextField>
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
