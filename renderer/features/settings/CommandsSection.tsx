import { envNameSchema, homeEntrySchema } from '../../../shared/settings';
import { AllowedHosts } from './AllowedHosts';
import { ConfinementLeftOut, ConfinementRules } from './ConfinementRules';
import { ConfinementStatus } from './ConfinementStatus';
import { SettingList } from './SettingList';
import { SettingSwitch } from './SettingSwitch';
import { SettingsPartSection } from './SettingsSection';

/**
 * How commands run: confined or not (and why), what each kind of process may touch, the folders of
 * the home commands may read, and which environment variables they see beyond the safe minimum.
 */
export function CommandsSection() {
  return (
    <SettingsPartSection part="commands" id="settings-commands" titleKey="settings.commands">
      {(commands) => (
        <>
          <ConfinementStatus />
          <SettingSwitch part="commands" field="confinedOfflineWithoutAsking" />
          <AllowedHosts hosts={commands.allowedHosts} />
          <ConfinementRules />
          <SettingList
            part="commands"
            field="readableInHome"
            schema={homeEntrySchema}
            placeholder="projects/shared, .config/myapp"
            separated="commas"
          />
          <ConfinementLeftOut />
          <SettingList
            part="commands"
            field="passEnvironment"
            schema={envNameSchema}
            placeholder="GH_TOKEN DATABASE_URL"
            separated="words"
          />
        </>
      )}
    </SettingsPartSection>
  );
}
