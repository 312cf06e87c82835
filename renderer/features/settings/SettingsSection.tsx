import type { ReactNode } from 'react';
import type { SettingsPatch } from '../../../shared/settings';
import { familiar } from '../../ipc/familiar';
import { settingsActions } from './settings-store';

interface SettingsSectionProps {
  /** The heading's id: SettingsNav moves focus to it, and the section is named by it. */
  readonly id: string;
  readonly title: ReactNode;
  readonly children?: ReactNode;
}

/** One section of the Settings dialog, named by its heading. */
export function SettingsSection({ id, title, children }: SettingsSectionProps) {
  return (
    <section className="settings-section" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

interface SettingCheckboxProps {
  readonly checked: boolean;
  /** The settings.update patch for the new state of the box. */
  readonly patch: (checked: boolean) => SettingsPatch;
  readonly children: ReactNode;
}

/** A yes/no setting, saved through settings.update as soon as it is ticked. */
export function SettingCheckbox({ checked, patch, children }: SettingCheckboxProps) {
  return (
    <label className="checkbox">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => void settingsActions.update(familiar, patch(event.target.checked))}
      />
      {children}
    </label>
  );
}
