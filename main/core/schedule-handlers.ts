import { randomUUID } from 'node:crypto';
import { HEARTBEAT_ID } from '../../shared/ipc/schedules';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import type { ScheduledTask } from '../../shared/schedule-settings';
import { parseSchedule } from '../domain/schedules/schedule-text';
import type { Scheduler } from '../domain/schedules/scheduler';
import type { Handlers } from '../platform/ipc/dispatcher';
import type { SettingsStore } from '../platform/storage/settings-store';

export type ScheduleHandlers = Pick<
  Handlers,
  | 'schedules.state'
  | 'schedules.preview'
  | 'schedules.saveTask'
  | 'schedules.deleteTask'
  | 'schedules.runNow'
  | 'schedules.markSeen'
>;

export interface ScheduleHandlerDeps {
  readonly scheduler: Scheduler;
  readonly settings: SettingsStore;
  readonly now: () => Date;
  readonly checkWorkspace: (path: string) => Promise<Result<string>>;
  readonly unseen: () => number;
  readonly markSeen: () => void;
}

const PREVIEW_RUNS = 3;

export function createScheduleHandlers(deps: ScheduleHandlerDeps): ScheduleHandlers {
  const tasks = () => deps.settings.get().schedules.tasks;
  return {
    'schedules.state': async () => ok({ ...(await deps.scheduler.state()), unseen: deps.unseen() }),
    'schedules.preview': ({ schedule }) => {
      const parsed = parseSchedule(schedule);
      if (!parsed.ok) return parsed;
      return ok({
        cron: parsed.value.cron,
        next: parsed.value.next(PREVIEW_RUNS, deps.now()).map((at) => at.toISOString()),
      });
    },
    'schedules.saveTask': async ({ task: draft }) => {
      const parsed = parseSchedule(draft.schedule);
      if (!parsed.ok) return parsed;
      if (draft.id === HEARTBEAT_ID) return err('invalid_arguments', `"${HEARTBEAT_ID}" is the heartbeat's name.`);
      let workspace: string | null = null;
      if (draft.workspace !== null) {
        const checked = await deps.checkWorkspace(draft.workspace);
        if (!checked.ok) return checked;
        workspace = checked.value;
      }
      const previous = tasks().find((candidate) => candidate.id === draft.id);
      if (draft.id !== undefined && previous === undefined) return err('not_found', 'That task no longer exists.');
      const task: ScheduledTask = {
        id: draft.id ?? `task-${randomUUID().slice(0, 8)}`,
        name: draft.name,
        prompt: draft.prompt,
        schedule: draft.schedule.trim(),
        workspace,
        toolPolicy: draft.toolPolicy,
        enabled: draft.enabled,
        // Counted from the save: a changed schedule never makes an earlier slot look missed.
        createdAt: deps.now().toISOString(),
      };
      const next =
        previous === undefined
          ? [...tasks(), task]
          : tasks().map((candidate) => (candidate.id === task.id ? task : candidate));
      await deps.settings.update({ schedules: { tasks: next } });
      return ok(task);
    },
    'schedules.deleteTask': async ({ id }) => {
      if (!tasks().some((task) => task.id === id)) return err('not_found', 'That task no longer exists.');
      await deps.settings.update({ schedules: { tasks: tasks().filter((task) => task.id !== id) } });
      return ok({});
    },
    'schedules.runNow': ({ id }) => {
      const started = deps.scheduler.runNow(id);
      return started.ok ? ok({}) : started;
    },
    'schedules.markSeen': () => {
      deps.markSeen();
      return ok({});
    },
  };
}
