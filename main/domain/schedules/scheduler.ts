import { HEARTBEAT_ID } from '../../../shared/ipc/schedules';
import type { ScheduleRun, SchedulesState } from '../../../shared/ipc/schedules';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { HeartbeatSettings, ScheduledTask } from '../../../shared/schedule-settings';
import type { Logger } from '../../platform/logging/logger';
import { randomUUID } from 'node:crypto';
import { heartbeatDue, nextHeartbeat } from './heartbeat-window';
import type { RunHistory, ScheduleMarks } from './run-history';
import { parseSchedule } from './schedule-text';

/** Time as the scheduler sees it: injected, so tests move it instead of waiting real minutes. */
export interface SchedulerClock {
  now(): Date;
  /** Calls `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
}

export const systemClock: SchedulerClock = {
  now: () => new Date(),
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    // The schedule never keeps a process alive by itself: the app or the server does.
    timer.unref();
    return () => clearInterval(timer);
  },
};

/** How often the schedule is checked: a minute's cron slot is never more than this late. */
export const CHECK_EVERY_MS = 15_000;
/** A run that starts this long after its slot says it was late (Familiar was closed, or asleep). */
export const LATE_AFTER_MS = 2 * 60_000;

/** How a run ended, as the runner (main/core/schedule-runs.ts) reports it. */
export interface RunOutcome {
  readonly status: 'ok' | 'attention' | 'error' | 'skipped';
  readonly toolCalls: number;
  readonly result?: string;
  readonly error?: string;
  readonly conversationId?: string;
}

export interface RunInfo {
  /** The slot this run answers; null when run by hand. */
  readonly scheduledFor: Date | null;
  readonly late: boolean;
}

export interface SchedulerDeps {
  readonly clock: SchedulerClock;
  readonly history: RunHistory;
  readonly tasks: () => readonly ScheduledTask[];
  readonly heartbeat: () => HeartbeatSettings;
  readonly runTask: (task: ScheduledTask, info: RunInfo) => Promise<RunOutcome>;
  readonly runHeartbeat: (info: RunInfo) => Promise<RunOutcome>;
  /** A run started or ended. */
  readonly onChange: () => void;
  readonly logger: Logger;
}

export interface Scheduler {
  /** Reads what was handled before and checks at once: a run missed while closed runs now, once. */
  start(): Promise<void>;
  /** One look at the clock: starts every run that is due. The timer calls it; tests call it directly. */
  check(): Promise<void>;
  runNow(id: string): Result<void>;
  isRunning(id: string): boolean;
  state(): Promise<Omit<SchedulesState, 'unseen'>>;
  /** Stops the timer; runs already going end with their turns (the chat service stops them). */
  stop(): void;
  /** Resolves when no run is going. */
  idle(): Promise<void>;
}

const RESULT_CHARS = 4000;

export function createScheduler(deps: SchedulerDeps): Scheduler {
  const running = new Map<string, Promise<void>>();
  let marks: ScheduleMarks = { tasks: {}, heartbeat: null };
  let stopTimer: (() => void) | undefined;
  let stopped = false;
  // check() is not reentrant: a slow marks write must not let the next tick start the same run twice.
  let checking = Promise.resolve();

  async function record(run: ScheduleRun) {
    try {
      await deps.history.save(run);
    } catch (error) {
      deps.logger.error(`schedule run ${run.id} could not be recorded`, error);
    }
    deps.onChange();
  }

  function launch(id: string, name: string, info: RunInfo, work: () => Promise<RunOutcome>): void {
    const startedAt = deps.clock.now().toISOString();
    const base: ScheduleRun = {
      id: `r-${randomUUID()}`,
      taskId: id,
      taskName: name,
      scheduledFor: info.scheduledFor?.toISOString() ?? null,
      startedAt,
      finishedAt: null,
      late: info.late,
      status: 'running',
      toolCalls: 0,
    };
    const done = (async () => {
      await record(base);
      let outcome: RunOutcome;
      try {
        outcome = await work();
      } catch (error) {
        deps.logger.error(`schedule run of ${id} failed`, error);
        outcome = { status: 'error', toolCalls: 0, error: error instanceof Error ? error.message : String(error) };
      }
      await record({
        ...base,
        finishedAt: deps.clock.now().toISOString(),
        status: outcome.status,
        toolCalls: outcome.toolCalls,
        ...(outcome.result === undefined ? {} : { result: outcome.result.slice(0, RESULT_CHARS) }),
        ...(outcome.error === undefined ? {} : { error: outcome.error }),
        ...(outcome.conversationId === undefined ? {} : { conversationId: outcome.conversationId }),
      });
    })().finally(() => running.delete(id));
    running.set(id, done);
  }

  /** A slot that came while the previous run was still going: said in the history, never silent. */
  async function recordOverlap(id: string, name: string, slot: Date) {
    const at = deps.clock.now().toISOString();
    await record({
      id: `r-${randomUUID()}`,
      taskId: id,
      taskName: name,
      scheduledFor: slot.toISOString(),
      startedAt: at,
      finishedAt: at,
      late: false,
      status: 'skipped',
      toolCalls: 0,
      error: 'The previous run was still going; runs never overlap.',
    });
  }

  async function checkNow() {
    if (stopped) return;
    const now = deps.clock.now();
    let changed = false;
    for (const task of deps.tasks()) {
      if (!task.enabled) continue;
      const schedule = parseSchedule(task.schedule);
      if (!schedule.ok) continue;
      const slot = schedule.value.latestAtOrBefore(now);
      const handled = marks.tasks[task.id] ?? task.createdAt;
      if (slot === undefined || slot.getTime() <= Date.parse(handled)) continue;
      // Only the latest missed slot runs: a week closed is one late run, not seven.
      marks = { ...marks, tasks: { ...marks.tasks, [task.id]: slot.toISOString() } };
      changed = true;
      if (running.has(task.id)) {
        await recordOverlap(task.id, task.name, slot);
        continue;
      }
      const late = now.getTime() - slot.getTime() > LATE_AFTER_MS;
      launch(task.id, task.name, { scheduledFor: slot, late }, () => deps.runTask(task, { scheduledFor: slot, late }));
    }
    const heartbeat = deps.heartbeat();
    if (heartbeatDue(heartbeat, marks.heartbeat, now) && !running.has(HEARTBEAT_ID)) {
      marks = { ...marks, heartbeat: now.toISOString() };
      changed = true;
      launch(HEARTBEAT_ID, 'Heartbeat', { scheduledFor: now, late: false }, () =>
        deps.runHeartbeat({ scheduledFor: now, late: false }),
      );
    }
    if (changed) await deps.history.writeMarks(marks);
  }

  const scheduler: Scheduler = {
    async start() {
      marks = await deps.history.readMarks();
      stopTimer = deps.clock.every(CHECK_EVERY_MS, () => void scheduler.check());
      await scheduler.check();
    },
    check() {
      checking = checking.then(checkNow).catch((error: unknown) => deps.logger.error('schedule check failed', error));
      return checking;
    },
    runNow(id) {
      if (running.has(id)) return err('turn_in_progress', 'It is running now; runs never overlap.');
      const info: RunInfo = { scheduledFor: null, late: false };
      if (id === HEARTBEAT_ID) {
        launch(HEARTBEAT_ID, 'Heartbeat', info, () => deps.runHeartbeat(info));
        return ok(undefined);
      }
      const task = deps.tasks().find((candidate) => candidate.id === id);
      if (task === undefined) return err('not_found', `There is no task ${JSON.stringify(id)}.`);
      launch(task.id, task.name, info, () => deps.runTask(task, info));
      return ok(undefined);
    },
    isRunning: (id) => running.has(id),
    async state() {
      const now = deps.clock.now();
      const tasks = deps.tasks().map((task) => {
        const schedule = parseSchedule(task.schedule);
        const next = schedule.ok && task.enabled ? schedule.value.next(1, now)[0] : undefined;
        return {
          task,
          nextRun: next?.toISOString() ?? null,
          ...(schedule.ok ? {} : { scheduleError: schedule.error.message }),
          running: running.has(task.id),
        };
      });
      const heartbeatNext = nextHeartbeat(deps.heartbeat(), marks.heartbeat, now);
      return {
        tasks,
        heartbeat: { nextRun: heartbeatNext?.toISOString() ?? null, running: running.has(HEARTBEAT_ID) },
        runs: await deps.history.list(),
      };
    },
    stop() {
      stopped = true;
      stopTimer?.();
    },
    async idle() {
      while (running.size > 0) await Promise.all(running.values());
    },
  };
  return scheduler;
}
