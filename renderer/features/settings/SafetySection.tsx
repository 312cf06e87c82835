import { settingsPatchSchema } from '../../../shared/settings';
import { familiar } from '../../ipc/familiar';
import { settingsActions } from './settings-store';
import { boundsOf, WholeNumberField } from './WholeNumberField';
import { ConfinementStatus } from './ConfinementStatus';
import { SearchEngineStatus } from './SearchEngineStatus';
import { SettingCheckbox, SettingsPartSection } from './SettingsSection';

/** settings.update's own fields: each limit's bounds are the ones main checks. */
const limitFields = settingsPatchSchema.shape.safety.unwrap().shape.backups.unwrap().shape;
const limitNames = ['maxItems', 'maxSizeMB', 'maxAgeDays'] as const;

/**
 * Whether commands run confined (and if not, why and how to fix it) and which engine searches, then the sandbox's two
 * user-facing switches: hard-linked files, and how many backups are kept.
 */
export function SafetySection() {
  return (
    <SettingsPartSection part="safety" id="settings-safety" titleKey="settings.safety">
      {(safety, t) => (
        <>
          <ConfinementStatus />
          <SearchEngineStatus />
          <SettingCheckbox
            checked={safety.hardLinks === 'allow'}
            patch={(checked) => ({ safety: { hardLinks: checked ? 'allow' : 'refuse' } })}
            explanation={t('settings.hardLinksExplain')}
          >
            {t('settings.hardLinks')}
          </SettingCheckbox>
          <fieldset className="cap-fields">
            <legend>{t('settings.backups')}</legend>
            {limitNames.map((name) => (
              <WholeNumberField
                key={name}
                label={t(`settings.backups.${name}`)}
                value={safety.backups[name]}
                {...boundsOf(limitFields[name])}
                onCommit={(next) => void settingsActions.update(familiar, { safety: { backups: { [name]: next } } })}
              />
            ))}
          </fieldset>
          <p className="muted">{t('settings.backupsExplain')}</p>
        </>
      )}
    </SettingsPartSection>
  );
}
