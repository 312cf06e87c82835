import { envNameSchema, homeEntrySchema } from '../../../shared/settings';
import { familiar } from '../../ipc/familiar';
import { AllowedHosts } from './AllowedHosts';
import { ConfinementLeftOut, ConfinementRules } from './ConfinementRules';
import { ConfinementStatus } from './ConfinementStatus';
import { NameListField } from './NameListField';
import { settingsActions } from './settings-store';
import { SettingSwitch } from './SettingSwitch';
import { SettingsPartSection } from './SettingsSection';

/**
 * How commands run: confined or not (and why), what each kind of process may touch, the folders of
 * the home commands may read, and which environment variables they see beyond the safe minimum.
 */
export function CommandsSection() {
  return (
    <SettingsPartSection part="commands" id="settings-commands" titleKey="settings.commands">
      {(commands, t) => (
        <>
          <ConfinementStatus />
          <SettingSwitch part="commands" field="confinedOfflineWithoutAsking" />
          <AllowedHosts hosts={commands.allowedHosts} />
          <ConfinementRules />
          <NameListField
            key={`home:${commands.readableInHome.join('\n')}`}
            id="settings-readable-home"
            label={t('confinement.readableInHome')}
            placeholder="projects/shared, .config/myapp"
            value={commands.readableInHome}
            separators={/[,;]/}
            joiner=", "
            schema={homeEntrySchema}
            invalidMessage={(entries) => t('confinement.readableInHomeInvalid', { entries })}
            describedBy="settings-readable-home-explain"
            onSave={(readableInHome) => void settingsActions.update(familiar, { commands: { readableInHome } })}
          />
          <p className="muted" id="settings-readable-home-explain">
            {t('confinement.readableInHomeExplain')}
          </p>
          <ConfinementLeftOut />
          <NameListField
            key={`env:${commands.passEnvironment.join(' ')}`}
            id="settings-pass-env"
            label={t('settings.passEnvironment')}
            placeholder="GH_TOKEN DATABASE_URL"
            value={commands.passEnvironment}
            separators={/[\s,;]+/}
            joiner=" "
            schema={envNameSchema}
            invalidMessage={(names) => t('settings.passEnvironmentInvalid', { names })}
            describedBy="settings-pass-env-explain"
            onSave={(passEnvironment) => void settingsActions.update(familiar, { commands: { passEnvironment } })}
          />
          <p className="muted" id="settings-pass-env-explain">
            {t('settings.passEnvironmentExplain')}
          </p>
        </>
      )}
    </SettingsPartSection>
  );
}
