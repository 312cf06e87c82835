import type { ScheduleNotification } from '../../shared/ipc/schedules';
import type { EventPayload } from '../../shared/ipc/contract';
import type { ChatService } from '../agent/chat-service';
import type { ConversationStore } from '../domain/conversations/conversation-store';
import { readPersonaFile } from '../domain/persona/persona-files';
import type { PersonaFolder } from '../domain/persona/persona-folder';
import { openRunHistory } from '../domain/schedules/run-history';
import { createScheduler, systemClock } from '../domain/schedules/scheduler';
import type { Scheduler, SchedulerClock } from '../domain/schedules/scheduler';
import { checkChosenFolder } from '../platform/disk/chosen-folder';
import type { EventHub } from '../platform/ipc/event-hub';
import type { Logger } from '../platform/logging/logger';
import type { FamiliarPaths } from '../platform/storage/paths';
import type { SettingsStore } from '../platform/storage/settings-store';
import { createScheduleHandlers } from './schedule-handlers';
import type { ScheduleHandlers } from './schedule-handlers';
import { runHeartbeat, runScheduledTask } from './schedule-runs';
import type { RunScope } from './schedule-runs';

export interface SchedulingDeps {
  readonly paths: FamiliarPaths;
  readonly settings: SettingsStore;
  readonly events: EventHub;
  readonly conversations: ConversationStore;
  readonly chat: ChatService;
  /** The conversations scheduled runs are going in (schedule-runs.ts). */
  readonly runScope: RunScope;
  readonly personaFolder: PersonaFolder;
  readonly logger: Logger;
  /** The heartbeat's and the tasks' clock (CoreOptions.scheduleClock); default the system's. */
  readonly clock?: SchedulerClock | undefined;
}

/**
 * The heartbeat and the scheduled tasks (issue 30), wired to the core: the scheduler reading the
 * settings, each run in its own conversation through the chat, notifications counted until seen (a
 * task's approval waiting for the user notifies too), and the schedules' handlers.
 */
export async function createScheduling(
  deps: SchedulingDeps,
): Promise<{ readonly scheduler: Scheduler; readonly handlers: ScheduleHandlers }> {
  const { paths, settings, events, conversations, chat, runScope, personaFolder, logger } = deps;
  const clock = deps.clock ?? systemClock;
  let unseen = 0;
  const notify = (notification: Omit<ScheduleNotification, 'id' | 'at'>) => {
    unseen += 1;
    events.emit('schedules.notification', {
      ...notification,
      id: `n-${unseen}-${clock.now().getTime()}`,
      at: clock.now().toISOString(),
    });
    events.emit('schedules.changed', { unseen });
  };
  const checkWorkspace = (path: string) =>
    checkChosenFolder(path, { home: paths.home, personaDir: paths.defaultWorkspace });
  const runDeps = {
    conversations,
    chat,
    scope: runScope,
    readHeartbeat: () => readPersonaFile(personaFolder, 'HEARTBEAT.md'),
    checkWorkspace,
    notify,
  };
  const scheduler = createScheduler({
    clock,
    history: await openRunHistory(paths.schedules),
    tasks: () => settings.get().schedules.tasks,
    heartbeat: () => settings.get().schedules.heartbeat,
    runTask: (task, info) => runScheduledTask(runDeps, task, info),
    runHeartbeat: (info) => runHeartbeat(runDeps, info),
    onChange: () => events.emit('schedules.changed', { unseen }),
    logger: logger,
  });
  // A task's approval waits for the user wherever they are: the notification says so.
  events.subscribe((name, payload) => {
    if (name !== 'approvals.requested') return;
    const request = payload as EventPayload<'approvals.requested'>;
    const task = runScope.tasks.get(request.conversationId);
    if (task !== undefined) {
      notify({ kind: 'approval', title: task, body: request.summary, conversationId: request.conversationId });
    }
  });
  settings.subscribe((next, previous) => {
    if (JSON.stringify(next.schedules) !== JSON.stringify(previous.schedules)) {
      events.emit('schedules.changed', { unseen });
      void scheduler.check();
    }
  });
  const handlers = createScheduleHandlers({
    scheduler,
    settings,
    now: () => clock.now(),
    checkWorkspace,
    unseen: () => unseen,
    markSeen: () => {
      unseen = 0;
      events.emit('schedules.changed', { unseen });
    },
  });
  return { scheduler, handlers };
}
