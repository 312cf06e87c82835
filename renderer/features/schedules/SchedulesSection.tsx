import { Fragment, useEffect, useState } from 'react';
import type { ChangeEvent } from 'react';
import type { ScheduleRun, TaskDraft, TaskView } from '../../../shared/ipc/schedules';
import type { HeartbeatSettings } from '../../../shared/schedule-settings';
import { familiar } from '../../ipc/familiar';
import { useAnswer } from '../../ipc/use-answer';
import { useI18nStore, useT } from '../../i18n/i18n';
import { settingsActions, useSettingsStore } from '../settings/settings-store';
import { LabelledField } from '../settings/LabelledField';
import { SettingCheckbox, SettingsSection } from '../settings/SettingsSection';
import { schedulesActions, useSchedulesStore } from './schedules-store';
import './schedules.css';

const when = (iso: string | null, locale: string) =>
  iso === null ? '' : new Date(iso).toLocaleString(locale, { dateStyle: 'short', timeStyle: 'short' });

function HeartbeatFields({
  heartbeat,
  nextRun,
}: {
  readonly heartbeat: HeartbeatSettings;
  readonly nextRun: string | null;
}) {
  const t = useT();
  const locale = useI18nStore((state) => state.locale);
  const running = useSchedulesStore((state) => state.state?.heartbeat.running ?? false);
  const update = (patch: Partial<HeartbeatSettings>) =>
    void settingsActions.update(familiar, { schedules: { heartbeat: patch } });
  return (
    <fieldset className="schedule-form">
      <legend>{t('schedules.heartbeat')}</legend>
      <SettingCheckbox
        checked={heartbeat.enabled}
        patch={(enabled) => ({ schedules: { heartbeat: { enabled } } })}
        explanation={t('schedules.heartbeatExplain')}
      >
        {t('schedules.heartbeatOn')}
      </SettingCheckbox>
      <LabelledField id="heartbeat-interval" label={t('schedules.interval')} layout="row">
        <input
          id="heartbeat-interval"
          type="number"
          min={5}
          max={1440}
          defaultValue={heartbeat.intervalMinutes}
          key={heartbeat.intervalMinutes}
          onBlur={(event) => {
            const minutes = Number(event.target.value);
            if (Number.isInteger(minutes) && minutes >= 5 && minutes <= 1440 && minutes !== heartbeat.intervalMinutes) {
              update({ intervalMinutes: minutes });
            }
          }}
        />
        {(['activeFrom', 'activeTo'] as const).map((bound) => (
          <Fragment key={bound}>
            <label htmlFor={`heartbeat-${bound}`}>{t(`schedules.${bound}`)}</label>
            <input
              id={`heartbeat-${bound}`}
              type="time"
              value={heartbeat[bound]}
              onChange={(event) => event.target.value !== '' && update({ [bound]: event.target.value })}
            />
          </Fragment>
        ))}
      </LabelledField>
      <p className="muted">
        {nextRun === null ? t('schedules.noNextRun') : t('schedules.nextRun', { time: when(nextRun, locale) })}{' '}
        <button
          type="button"
          className="button button-small"
          disabled={running}
          onClick={() => void familiar.invoke('schedules.runNow', { id: 'heartbeat' })}
        >
          {running ? t('schedules.running') : t('schedules.runNow')}
        </button>
      </p>
    </fieldset>
  );
}

const emptyDraft: TaskDraft = {
  name: '',
  prompt: '',
  schedule: 'every day at 9',
  workspace: null,
  toolPolicy: 'ask',
  enabled: true,
};

/** The task editor: the schedule's next runs are previewed as it is typed; main checks it on save. */
function TaskForm({ initial, onDone }: { readonly initial: TaskDraft; readonly onDone: () => void }) {
  const t = useT();
  const locale = useI18nStore((state) => state.locale);
  const [draft, setDraft] = useState<TaskDraft>(initial);
  const previewed = useAnswer(
    () => familiar.invoke('schedules.preview', { schedule: draft.schedule }),
    [draft.schedule],
  );
  const preview = previewed.error === null ? { next: previewed.value?.next } : { error: previewed.error };
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Partial<TaskDraft>) => setDraft((previous) => ({ ...previous, ...patch }));
  /** A required text field of the draft: its id, bound value and length cap. */
  const required = (field: 'name' | 'prompt' | 'schedule', maxLength: number) => ({
    id: `task-${field}`,
    required: true,
    maxLength,
    value: draft[field],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set({ [field]: event.target.value }),
  });
  const save = async () => {
    const saved = await familiar.invoke('schedules.saveTask', { task: draft });
    if (saved.ok) onDone();
    else setError(saved.error.message);
  };
  return (
    <form
      className="schedule-form"
      aria-label={initial.id === undefined ? t('schedules.newTask') : t('schedules.edit')}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <LabelledField id="task-name" label={t('schedules.name')} layout="column">
        <input {...required('name', 100)} />
      </LabelledField>
      <LabelledField id="task-prompt" label={t('schedules.prompt')} layout="column">
        <textarea {...required('prompt', 20_000)} />
      </LabelledField>
      <LabelledField id="task-schedule" label={t('schedules.schedule')} layout="column">
        <input {...required('schedule', 200)} aria-describedby="task-schedule-preview" />
        <p className="muted">{t('schedules.scheduleHint')}</p>
        <p id="task-schedule-preview" className={preview.error === undefined ? 'muted' : 'form-error'}>
          {preview.error ??
            (preview.next === undefined
              ? ''
              : t('schedules.preview', { times: preview.next.map((at) => when(at, locale)).join(', ') }))}
        </p>
      </LabelledField>
      <LabelledField id="task-workspace" label={t('schedules.workspace')} layout="column">
        <input
          id="task-workspace"
          value={draft.workspace ?? ''}
          placeholder={t('schedules.workspaceHint')}
          onChange={(event) => set({ workspace: event.target.value.trim() === '' ? null : event.target.value })}
        />
      </LabelledField>
      <LabelledField id="task-policy" label={t('schedules.toolPolicy')} layout="row">
        <select
          id="task-policy"
          value={draft.toolPolicy}
          onChange={(event) => set({ toolPolicy: event.target.value === 'refuse' ? 'refuse' : 'ask' })}
        >
          <option value="ask">{t('schedules.policy.ask')}</option>
          <option value="refuse">{t('schedules.policy.refuse')}</option>
        </select>
        <label>
          <input type="checkbox" checked={draft.enabled} onChange={(event) => set({ enabled: event.target.checked })} />{' '}
          {t('schedules.enabled')}
        </label>
      </LabelledField>
      {error !== null && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="field-row">
        <button type="submit" className="button button-primary">
          {t('schedules.save')}
        </button>
        <button type="button" className="button" onClick={onDone}>
          {t('schedules.cancel')}
        </button>
      </div>
    </form>
  );
}

function TaskRow({ view, onEdit }: { readonly view: TaskView; readonly onEdit: () => void }) {
  const t = useT();
  const locale = useI18nStore((state) => state.locale);
  const { task } = view;
  const remove = () => {
    if (!window.confirm(t('schedules.deleteConfirm', { name: task.name }))) return;
    void familiar.invoke('schedules.deleteTask', { id: task.id });
  };
  return (
    <li className="schedule-task" aria-label={task.name}>
      <span className="schedule-task-name">{task.name}</span>
      <code>{task.schedule}</code>
      <span className="muted">
        {!task.enabled
          ? t('schedules.disabled')
          : (view.scheduleError ??
            (view.nextRun === null
              ? t('schedules.noNextRun')
              : t('schedules.nextRun', { time: when(view.nextRun, locale) })))}
      </span>
      <button
        type="button"
        className="button button-small"
        disabled={view.running}
        onClick={() => void familiar.invoke('schedules.runNow', { id: task.id })}
      >
        {view.running ? t('schedules.running') : t('schedules.runNow')}
      </button>
      <button type="button" className="button button-small" onClick={onEdit}>
        {t('schedules.edit')}
      </button>
      <button type="button" className="button button-small button-danger" onClick={remove}>
        {t('schedules.delete')}
      </button>
    </li>
  );
}

function RunHistory({ runs }: { readonly runs: readonly ScheduleRun[] }) {
  const t = useT();
  const locale = useI18nStore((state) => state.locale);
  if (runs.length === 0) return <p className="muted">{t('schedules.noRuns')}</p>;
  return (
    <table className="schedule-runs" aria-label={t('schedules.history')}>
      <thead>
        <tr>
          <th>{t('schedules.col.what')}</th>
          <th>{t('schedules.col.started')}</th>
          <th>{t('schedules.col.finished')}</th>
          <th>{t('schedules.col.status')}</th>
          <th>{t('schedules.col.tools')}</th>
        </tr>
      </thead>
      <tbody>
        {runs.slice(0, 50).map((run) => (
          <tr key={run.id}>
            <td>
              {run.taskName}
              {run.late && <span className="muted"> ({t('schedules.late')})</span>}
            </td>
            <td>{when(run.startedAt, locale)}</td>
            <td>{when(run.finishedAt, locale)}</td>
            <td className="schedule-run-result">
              <strong>{t(`schedules.status.${run.status}`)}</strong>
              {(run.error ?? run.result) !== undefined && <div>{(run.error ?? run.result ?? '').slice(0, 300)}</div>}
            </td>
            <td>{run.toolCalls}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Settings → Heartbeat & tasks: the heartbeat's switch and hours, the tasks, and what ran. */
export function SchedulesSection() {
  const t = useT();
  const state = useSchedulesStore((store) => store.state);
  const heartbeat = useSettingsStore((store) => store.settings?.schedules.heartbeat);
  const [editing, setEditing] = useState<TaskDraft | null>(null);
  useEffect(() => {
    void schedulesActions.load(familiar);
  }, []);
  return (
    <SettingsSection id="settings-schedules" title={t('settings.schedules')}>
      <p className="muted">{t('schedules.explain')}</p>
      {heartbeat !== undefined && <HeartbeatFields heartbeat={heartbeat} nextRun={state?.heartbeat.nextRun ?? null} />}
      <h4>{t('schedules.tasks')}</h4>
      {state !== null && state.tasks.length === 0 && <p className="muted">{t('schedules.noTasks')}</p>}
      <ul className="schedule-tasks" aria-label={t('schedules.tasks')}>
        {state?.tasks.map((view) => (
          <TaskRow key={view.task.id} view={view} onEdit={() => setEditing({ ...view.task })} />
        ))}
      </ul>
      {editing === null ? (
        <button type="button" className="button" onClick={() => setEditing(emptyDraft)}>
          {t('schedules.newTask')}
        </button>
      ) : (
        <TaskForm key={editing.id ?? 'new'} initial={editing} onDone={() => setEditing(null)} />
      )}
      <h4>{t('schedules.history')}</h4>
      <RunHistory runs={state?.runs ?? []} />
    </SettingsSection>
  );
}
