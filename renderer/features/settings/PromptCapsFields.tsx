import type { Settings } from '../../../shared/settings';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { settingsActions, useSettingsStore } from './settings-store';
import { WholeNumberField } from './WholeNumberField';

type CapName = keyof Settings['prompt'];
const capNames: readonly CapName[] = ['perFile', 'userFile', 'total'];
const limits: Record<CapName, { min: number; max: number }> = {
  perFile: { min: 1000, max: 1_000_000 },
  userFile: { min: 500, max: 1_000_000 },
  total: { min: 2000, max: 3_000_000 },
};

/** The prompt caps for the persona files, editable: the meters above follow at once. */
export function PromptCapsFields() {
  const t = useT();
  const caps = useSettingsStore((state) => state.settings?.prompt);
  if (caps === undefined) return null;
  return (
    <div className="cap-fields">
      {capNames.map((name) => (
        <WholeNumberField
          key={`${name}-${caps[name]}`}
          label={t(`persona.cap.${name}`)}
          value={caps[name]}
          {...limits[name]}
          step={1000}
          onCommit={(next) => void settingsActions.update(familiar, { prompt: { [name]: next } })}
        />
      ))}
    </div>
  );
}
