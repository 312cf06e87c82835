import type { BackupLimits } from '../../../shared/settings';
import { familiar } from '../../ipc/familiar';
import { settingsActions } from './settings-store';
import { WholeNumberField } from './WholeNumberField';
import { SettingCheckbox, SettingsPartSection } from './SettingsSection';

type LimitName = keyof BackupLimits;
const limitNames: readonly LimitName[] = ['maxItems', 'maxSizeMB', 'maxAgeDays'];
const ranges: Record<LimitName, { min: number; max: number }> = {
  maxItems: { min: 10, max: 100_000 },
  maxSizeMB: { min: 10, max: 1_000_000 },
  maxAgeDays: { min: 1, max: 3650 },
};

/** The sandbox's two user-facing switches: hard-linked files, and how many backups are kept. */
export function SafetySection() {
  return (
    <SettingsPartSection part="safety" id="settings-safety" titleKey="settings.safety">
      {(safety, t) => (
        <>
          <SettingCheckbox
            checked={safety.hardLinks === 'allow'}
            patch={(checked) => ({ safety: { hardLinks: checked ? 'allow' : 'refuse' } })}
          >
            {t('settings.hardLinks')}
          </SettingCheckbox>
          <p className="muted">{t('settings.hardLinksExplain')}</p>
          <fieldset className="cap-fields">
            <legend>{t('settings.backups')}</legend>
            {limitNames.map((name) => (
              <WholeNumberField
                key={name}
                label={t(`settings.backups.${name}`)}
                value={safety.backups[name]}
                {...ranges[name]}
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
