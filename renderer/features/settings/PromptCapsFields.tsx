import { settingsPatchSchema } from '../../../shared/settings';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { settingsActions, useSettingsStore } from './settings-store';
import { boundsOf, WholeNumberField } from './WholeNumberField';

/** settings.update's own fields: each cap's bounds are the ones main checks. */
const capFields = settingsPatchSchema.shape.prompt.unwrap().shape;
const capNames = ['perFile', 'userFile', 'total'] as const;

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
          {...boundsOf(capFields[name])}
          step={1000}
          onCommit={(next) => void settingsActions.update(familiar, { prompt: { [name]: next } })}
        />
      ))}
    </div>
  );
}
