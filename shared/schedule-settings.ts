import { z } from 'zod';

/**
 * The settings of the heartbeat and the scheduled tasks (issue 30-31): their part of settings.json
 * (settings.ts `schedules`), also what the schedules' IPC carries (ipc/schedules.ts).
 */

/** A time of day as HH:MM (24-hour clock). */
export const timeOfDaySchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time as HH:MM');

/**
 * The heartbeat (issue 31): off by default; when on, every `intervalMinutes` between `activeFrom`
 * and `activeTo` (local time; a range past midnight wraps), Familiar runs HEARTBEAT.md as a prompt.
 */
export const heartbeatSettingsSchema = z.object({
  enabled: z.boolean().default(false),
  intervalMinutes: z.number().int().min(5).max(1440).default(30),
  activeFrom: timeOfDaySchema.default('08:00'),
  activeTo: timeOfDaySchema.default('22:00'),
});
export type HeartbeatSettings = z.infer<typeof heartbeatSettingsSchema>;
export const defaultHeartbeat: HeartbeatSettings = {
  enabled: false,
  intervalMinutes: 30,
  activeFrom: '08:00',
  activeTo: '22:00',
};

/**
 * How a scheduled task's tool calls are decided. Both follow the policy; they differ in what happens
 * to a call the policy asks about: 'ask' waits for the user (and notifies), 'refuse' refuses it.
 * There is deliberately no approve-all: nobody watches a task run.
 */
export const taskToolPolicySchema = z.enum(['ask', 'refuse']);

/** A scheduled task: a prompt run on a schedule (cron text or "every day at 9") in a workspace. */
export const scheduledTaskSchema = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .max(60),
  name: z.string().trim().min(1).max(100),
  prompt: z.string().trim().min(1).max(20_000),
  /** Cron text (5 or 6 fields) or a phrase main understands (main/domain/schedules/schedule-text.ts). */
  schedule: z.string().trim().min(1).max(200),
  /** The folder the task works in (real path); null: the folder open when it runs. */
  workspace: z.string().min(1).nullable().default(null),
  toolPolicy: taskToolPolicySchema.default('ask'),
  enabled: z.boolean().default(true),
  /** When it was made: a run due before this is not a missed run. */
  createdAt: z.iso.datetime(),
});
export type ScheduledTask = z.infer<typeof scheduledTaskSchema>;

export const scheduledTasksSchema = z
  .array(scheduledTaskSchema)
  .max(100)
  .refine((tasks) => new Set(tasks.map((task) => task.id)).size === tasks.length, 'task ids must differ');
