import { z } from 'zod';
import { scheduledTaskSchema } from '../schedule-settings';
import { defineCall } from './define';

/** The run history's id for the heartbeat; saveTask never gives a task this id. */
export const HEARTBEAT_ID = 'heartbeat';

/**
 * One run of a task or of the heartbeat. `late`: it was due while Familiar was closed (or busy) and
 * ran at the next chance instead. `attention`: the heartbeat said something other than HEARTBEAT_OK.
 */
export const scheduleRunSchema = z.object({
  id: z.string(),
  /** A task's id, or HEARTBEAT_ID. */
  taskId: z.string(),
  taskName: z.string(),
  /** The slot of the schedule this run answers (null: run by hand). */
  scheduledFor: z.iso.datetime().nullable(),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
  late: z.boolean(),
  status: z.enum(['running', 'ok', 'attention', 'error', 'skipped', 'interrupted']),
  toolCalls: z.number().int().nonnegative(),
  /** The answer's text (cut to a few thousand characters). */
  result: z.string().optional(),
  error: z.string().optional(),
  /** Where to read the whole run; absent for a heartbeat that answered HEARTBEAT_OK (no trace). */
  conversationId: z.string().optional(),
});
export type ScheduleRun = z.infer<typeof scheduleRunSchema>;

export const taskViewSchema = z.object({
  task: scheduledTaskSchema,
  /** The next time it runs (null: disabled, or the schedule text is invalid). */
  nextRun: z.iso.datetime().nullable(),
  scheduleError: z.string().optional(),
  running: z.boolean(),
});
export type TaskView = z.infer<typeof taskViewSchema>;

export const schedulesStateSchema = z.object({
  tasks: z.array(taskViewSchema),
  heartbeat: z.object({ nextRun: z.iso.datetime().nullable(), running: z.boolean() }),
  /** Newest first. */
  runs: z.array(scheduleRunSchema),
  /** Notifications since the user last looked (the badge). */
  unseen: z.number().int().nonnegative(),
});
export type SchedulesState = z.infer<typeof schedulesStateSchema>;

/** What the user edits; main adds the id and the creation time. */
export const taskDraftSchema = scheduledTaskSchema.omit({ id: true, createdAt: true }).extend({
  id: scheduledTaskSchema.shape.id.optional(),
});
export type TaskDraft = z.input<typeof taskDraftSchema>;

export const scheduleNotificationSchema = z.object({
  id: z.string(),
  kind: z.enum(['heartbeat', 'task', 'approval', 'error']),
  title: z.string(),
  body: z.string(),
  conversationId: z.string().optional(),
  at: z.iso.datetime(),
});
export type ScheduleNotification = z.infer<typeof scheduleNotificationSchema>;

export const schedulesCalls = {
  'schedules.state': defineCall(z.object({}).strict(), schedulesStateSchema),
  /** The next runs a schedule text means, for the editor's preview; invalid_arguments says why not. */
  'schedules.preview': defineCall(
    z.object({ schedule: z.string().max(200) }).strict(),
    z.object({ cron: z.string(), next: z.array(z.iso.datetime()) }),
  ),
  /** Creates (no id) or replaces a task; the schedule and workspace are checked first. */
  'schedules.saveTask': defineCall(z.object({ task: taskDraftSchema }).strict(), scheduledTaskSchema),
  'schedules.deleteTask': defineCall(z.object({ id: z.string().max(60) }).strict(), z.object({})),
  /** Runs a task (or the heartbeat) now, unless it is already running. */
  'schedules.runNow': defineCall(z.object({ id: z.string().max(60) }).strict(), z.object({})),
  /** The user has seen the notifications: the badge clears. */
  'schedules.markSeen': defineCall(z.object({}).strict(), z.object({})),
};

export const schedulesEvents = {
  /** Runs started or ended, tasks changed: read schedules.state again. */
  'schedules.changed': z.object({ unseen: z.number().int().nonnegative() }),
  /** Something the user should see: a heartbeat that is not OK, a finished task, an approval a task waits for. */
  'schedules.notification': scheduleNotificationSchema,
};
