import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import type { Settings, SettingsPatch } from '../../../shared/settings';
import { familiar } from '../../ipc/familiar';
import type { MessageKey } from '../../i18n/en';
import { useT } from '../../i18n/i18n';
import { LabelledField } from './LabelledField';
import { settingsActions, useSettingsStore } from './settings-store';

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

interface SettingsPartSectionProps<K extends keyof Settings> {
  /** Which part of the settings the section shows. */
  readonly part: K;
  readonly id: string;
  readonly titleKey: MessageKey;
  /** The section's body, or a function that makes it from that part of the settings and the translator. */
  readonly children: ReactNode | ((value: Settings[K], t: ReturnType<typeof useT>) => ReactNode);
}

/** A section about one part of the settings; nothing until the settings have loaded. */
export function SettingsPartSection<K extends keyof Settings>({
  part,
  id,
  titleKey,
  children,
}: SettingsPartSectionProps<K>) {
  const t = useT();
  const value = useSettingsStore((state) => state.settings?.[part]);
  if (value === undefined) return null;
  return (
    <SettingsSection id={id} title={t(titleKey)}>
      {typeof children === 'function' ? children(value, t) : children}
    </SettingsSection>
  );
}

interface SettingCheckboxProps {
  readonly checked: boolean;
  /** The settings.update patch for the new state of the box. */
  readonly patch: (checked: boolean) => SettingsPatch;
  /** What ticking it means, shown under it and read out with the box (its accessible description). */
  readonly explanation?: ReactNode;
  readonly children: ReactNode;
}

/**
 * A yes/no setting, saved through settings.update as soon as it is ticked. The box shows the tick at
 * once, while main saves it (a save can take a moment on a busy machine); when the save fails it
 * falls back to the stored value, and the store's error says why.
 */
export function SettingCheckbox({ checked, patch, explanation, children }: SettingCheckboxProps) {
  const explanationId = useId();
  const [saving, setSaving] = useState<boolean | null>(null);
  const save = async (next: boolean) => {
    setSaving(next);
    try {
      await settingsActions.update(familiar, patch(next));
    } finally {
      setSaving(null);
    }
  };
  return (
    <>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={saving ?? checked}
          aria-describedby={explanation === undefined ? undefined : explanationId}
          onChange={(event) => void save(event.target.checked)}
        />
        {children}
      </label>
      {explanation !== undefined && (
        <p id={explanationId} className="muted">
          {explanation}
        </p>
      )}
    </>
  );
}

interface SettingSelectProps<T extends string | number> {
  readonly id: string;
  readonly label: ReactNode;
  /** The stored value: a settings file edited by hand may hold one that is not among the options. */
  readonly value: string | number;
  readonly options: readonly T[];
  readonly optionLabel: (option: T) => ReactNode;
  /** The settings.update patch for the chosen option. */
  readonly patch: (option: T) => SettingsPatch;
}

/** A choice among fixed options, saved through settings.update as soon as it is made. */
export function SettingSelect<T extends string | number>(props: SettingSelectProps<T>) {
  const { id, label, value, options, optionLabel, patch } = props;
  return (
    <LabelledField id={id} label={label} layout="row">
      <select
        id={id}
        className="select"
        value={value}
        onChange={(event) => {
          // The options are this very list: the index finds the typed value again.
          const chosen = options[event.target.selectedIndex];
          if (chosen !== undefined) void settingsActions.update(familiar, patch(chosen));
        }}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {optionLabel(option)}
          </option>
        ))}
      </select>
    </LabelledField>
  );
}
