import { FormError } from '../../app/FormError';
import type { SkillRow, SkillSource } from '../../../shared/ipc/skills';
import { familiar } from '../../ipc/familiar';
import { useAnswer } from '../../ipc/use-answer';
import type { MessageKey } from '../../i18n/en';
import { useT } from '../../i18n/i18n';
import { SettingsSection } from './SettingsSection';
import { settingsActions, useSettingsStore } from './settings-store';

const sourceKeys: Record<SkillSource, MessageKey> = {
  workspace: 'skills.sourceWorkspace',
  user: 'skills.sourceUser',
  familiar: 'skills.sourceFamiliar',
};

/** Why a skill is not offered, or that it is. */
function stateKey(skill: SkillRow): MessageKey {
  if (skill.errors.length > 0) return 'skills.invalid';
  if (skill.shadowedBy !== undefined) return 'skills.shadowed';
  return skill.loaded ? 'skills.loaded' : 'skills.off';
}

/**
 * Settings → Skills: every Agent Skill folder found in the three places, with where it came from,
 * its switch (settings: skills.disabled) and what is wrong with it. An invalid skill is listed with
 * its errors and never offered to the model. Read again whenever the settings change.
 */
export function SkillsSection() {
  const t = useT();
  const disabled = useSettingsStore((state) => state.settings?.skills.disabled);
  const listKey = JSON.stringify(disabled ?? null);
  const listed = useAnswer(() => familiar.invoke('skills.list', {}), [listKey]);
  const skills = listed.value?.skills ?? null;
  if (disabled === undefined) return null;
  const toggle = (name: string, on: boolean) => {
    const next = on ? disabled.filter((item) => item !== name) : [...new Set([...disabled, name])];
    void settingsActions.update(familiar, { skills: { disabled: next } });
  };
  return (
    <SettingsSection id="settings-skills" title={t('settings.skills')}>
      <p className="muted">{t('skills.explain')}</p>
      {skills !== null && skills.length === 0 && <p className="muted">{t('skills.none')}</p>}
      {skills !== null && skills.length > 0 && (
        <ul className="skills-list" aria-label={t('settings.skills')}>
          {skills.map((skill) => (
            <li
              key={`${skill.source}:${skill.name}`}
              className="skill-row"
              data-testid={`skill-${skill.source}-${skill.name}`}
            >
              <div className="field-row">
                <label className="checkbox">
                  <input
                    type="checkbox"
                    checked={skill.enabled}
                    disabled={skill.errors.length > 0}
                    aria-label={t('skills.enable', { name: skill.name, source: t(sourceKeys[skill.source]) })}
                    onChange={(event) => toggle(skill.name, event.target.checked)}
                  />
                  <strong>{skill.name}</strong>
                </label>
                <span className="muted">{t(sourceKeys[skill.source])}</span>
                <span className={`skill-state skill-state-${stateKey(skill).split('.')[1] ?? ''}`}>
                  {skill.shadowedBy === undefined
                    ? t(stateKey(skill))
                    : t('skills.shadowed', { source: t(sourceKeys[skill.shadowedBy]) })}
                </span>
              </div>
              {skill.description !== '' && <p className="skill-description">{skill.description}</p>}
              <p className="muted skill-dir">{skill.dir}</p>
              {skill.errors.length > 0 && (
                <ul className="skill-errors" aria-label={t('skills.errors', { name: skill.name })}>
                  {skill.errors.map((message) => (
                    <li key={message}>{message}</li>
                  ))}
                </ul>
              )}
              {skill.warnings.length > 0 && (
                <ul className="skill-warnings" aria-label={t('skills.warnings', { name: skill.name })}>
                  {skill.warnings.map((message) => (
                    <li key={message}>{message}</li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
      <FormError inline message={listed.error} />
    </SettingsSection>
  );
}
