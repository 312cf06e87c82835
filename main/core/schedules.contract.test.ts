import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reply, startScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import type { ScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import type { ScheduleNotification, SchedulesState } from '../../shared/ipc/schedules';
import { scheduleNotificationSchema } from '../../shared/ipc/schedules';
import type { SchedulerClock } from '../domain/schedules/scheduler';
import { useContractCores } from '../test-support/contract-core';
import type { ContractCore } from '../test-support/contract-core';
import { useTempDirs } from '../test-support/temp-dir';

/**
 * The heartbeat and scheduled tasks end to end through the contract: the real core and chat loop
 * against a scripted model, with the scheduler's clock moved by the test instead of waited for.
 */
const tempDir = useTempDirs();
const startCore = useContractCores();
let server: ScriptedLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A clock the test sets; the scheduler's timer never fires on its own (the test calls check()). */
function fakeClock(start: Date): SchedulerClock & { set(at: Date): void } {
  let now = start;
  return {
    now: () => new Date(now),
    every: () => () => undefined,
    set(at) {
      now = at;
    },
  };
}

interface Run extends ContractCore {
  readonly notifications: ScheduleNotification[];
  readonly state: () => Promise<SchedulesState>;
  /** One look at the clock, then every run it started has ended. */
  readonly tick: () => Promise<void>;
}

async function start(clock: SchedulerClock, home?: string): Promise<Run> {
  server ??= await startScriptedLlmServer();
  const run = await startCore({ home: home ?? (await tempDir()), llmUrl: server.url, scheduleClock: clock });
  const notifications: ScheduleNotification[] = [];
  run.core.events.subscribe((name, payload) => {
    if (name === 'schedules.notification') notifications.push(scheduleNotificationSchema.parse(payload));
  });
  return {
    ...run,
    notifications,
    state: () => run.call<SchedulesState>('schedules.state', {}),
    tick: async () => {
      await run.core.scheduler.check();
      await run.core.scheduler.idle();
    },
  };
}

/** Local times, as a user's "every day at 9" means them. */
const day = (date: number, hours: number, minutes = 0, seconds = 0) => new Date(2026, 2, date, hours, minutes, seconds);

const lastUserText = (request: { messages?: unknown } | undefined) => JSON.stringify(request?.messages ?? []);

describe('the heartbeat', () => {
  async function heartbeatOn(run: Run, checklist: string) {
    await writeFile(join(run.paths.defaultWorkspace, 'HEARTBEAT.md'), checklist);
    await run.call('settings.update', {
      schedules: { heartbeat: { enabled: true, intervalMinutes: 30, activeFrom: '00:00', activeTo: '00:00' } },
    });
    await run.tick();
  }

  it('runs HEARTBEAT.md as its prompt; HEARTBEAT_OK leaves only a line in the run history', async () => {
    const run = await start(fakeClock(day(2, 10)));
    server?.enqueue(reply.text('HEARTBEAT_OK'));
    await heartbeatOn(run, '# Heartbeat\n\n- Is the nightly build green?\n');

    expect(server?.requests).toHaveLength(1);
    expect(lastUserText(server?.requests[0])).toContain('Is the nightly build green?');
    expect(await run.call('conversations.list', {})).toMatchObject({ conversations: [] });
    expect(await readdir(run.paths.conversations)).toEqual([]);
    expect(run.notifications).toEqual([]);
    const { runs } = await run.state();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ taskId: 'heartbeat', status: 'ok', result: 'HEARTBEAT_OK', late: false });
    expect(runs[0]?.conversationId).toBeUndefined();

    // Not again within the interval; again once it has passed.
    await run.tick();
    expect(server?.requests).toHaveLength(1);
  });

  it('anything but HEARTBEAT_OK keeps the conversation and raises a notification and the badge', async () => {
    const clock = fakeClock(day(2, 10));
    const run = await start(clock);
    server?.enqueue(reply.text('HEARTBEAT_OK'), reply.text('The nightly build failed twice.'));
    await heartbeatOn(run, '- Is the nightly build green?\n');
    clock.set(day(2, 10, 31));
    await run.tick();

    expect(server?.requests).toHaveLength(2);
    expect(run.notifications).toEqual([
      expect.objectContaining({ kind: 'heartbeat', title: 'Heartbeat', body: 'The nightly build failed twice.' }),
    ]);
    const { conversations } = await run.call<{ conversations: { id: string; title: string }[] }>(
      'conversations.list',
      {},
    );
    expect(conversations).toEqual([
      expect.objectContaining({ id: run.notifications[0]?.conversationId, title: 'Heartbeat' }),
    ]);
    const state = await run.state();
    expect(state.unseen).toBe(1);
    expect(state.runs.map((entry) => entry.status)).toEqual(['attention', 'ok']);
    await run.call('schedules.markSeen', {});
    expect((await run.state()).unseen).toBe(0);
  });

  it('stays off by default and outside its active hours', async () => {
    const clock = fakeClock(day(2, 23));
    const run = await start(clock);
    await run.tick();
    await run.call('settings.update', {
      schedules: { heartbeat: { enabled: true, activeFrom: '08:00', activeTo: '22:00' } },
    });
    await run.tick();
    expect(server?.requests).toHaveLength(0);
    expect((await run.state()).runs).toEqual([]);
  });
});

describe('a scheduled task', () => {
  const task = (overrides: Record<string, unknown> = {}) => ({
    name: 'Morning summary',
    prompt: 'Summarise what changed overnight.',
    schedule: 'every day at 9',
    workspace: null,
    toolPolicy: 'ask',
    enabled: true,
    ...overrides,
  });

  it('scheduled a minute ahead runs once, on time, in a conversation named after it', async () => {
    const clock = fakeClock(day(2, 8, 59));
    const run = await start(clock);
    const saved = await run.call<{ id: string }>('schedules.saveTask', { task: task() });
    expect((await run.state()).tasks[0]?.nextRun).toBe(day(2, 9).toISOString());
    server?.enqueue(reply.text('Nothing changed overnight.'));
    await run.tick();
    expect(server?.requests).toHaveLength(0);

    clock.set(day(2, 9, 0, 5));
    await run.tick();
    clock.set(day(2, 9, 0, 50));
    await run.tick();
    expect(server?.requests).toHaveLength(1);
    expect(lastUserText(server?.requests[0])).toContain('Summarise what changed overnight.');
    const { runs } = await run.state();
    expect(runs).toEqual([
      expect.objectContaining({
        taskId: saved.id,
        status: 'ok',
        late: false,
        scheduledFor: day(2, 9).toISOString(),
        toolCalls: 0,
        result: 'Nothing changed overnight.',
      }),
    ]);
    const { conversations } = await run.call<{ conversations: { id: string; title: string }[] }>(
      'conversations.list',
      {},
    );
    expect(conversations).toEqual([expect.objectContaining({ id: runs[0]?.conversationId, title: 'Morning summary' })]);
    expect(run.notifications).toEqual([expect.objectContaining({ kind: 'task', title: 'Morning summary' })]);
  });

  it('missed while Familiar was closed runs once at the next start and says it was late', async () => {
    const home = await tempDir();
    const first = await start(fakeClock(day(2, 8)), home);
    await first.call('schedules.saveTask', { task: task() });
    await first.dispose('closed for two days');

    server?.enqueue(reply.text('Here is what changed.'));
    const clock = fakeClock(day(4, 10));
    const second = await start(clock, home);
    await second.core.scheduler.idle();
    clock.set(day(4, 10, 1));
    await second.tick();

    // Three slots were missed (9:00 on the 2nd, 3rd and 4th): one late run, for the latest.
    expect(server?.requests).toHaveLength(1);
    expect(lastUserText(server?.requests[0])).toContain('it is late');
    const { runs } = await second.state();
    expect(runs).toEqual([
      expect.objectContaining({ status: 'ok', late: true, scheduledFor: day(4, 9).toISOString() }),
    ]);
    expect(second.notifications).toEqual([expect.objectContaining({ kind: 'task', title: 'Morning summary (late)' })]);
  });

  it('waits for the user when a call needs approval, notifies, and never overlaps itself', async () => {
    const clock = fakeClock(day(2, 8, 59));
    const run = await start(clock);
    const saved = await run.call<{ id: string }>('schedules.saveTask', { task: task() });
    server?.enqueue(
      reply.toolCall('write_file', { path: 'summary.md', content: 'All quiet.\n' }),
      reply.text('Written.'),
    );
    clock.set(day(2, 9, 0, 5));
    await run.core.scheduler.check();

    const request = await run.pending();
    expect(request).toMatchObject({ tool: 'write_file', paths: ['summary.md'] });
    await vi.waitFor(() =>
      expect(run.notifications).toContainEqual(
        expect.objectContaining({ kind: 'approval', title: 'Morning summary', conversationId: request.conversationId }),
      ),
    );
    const target = join(run.core.workspace.current(), 'summary.md');
    await expect(readFile(target, 'utf8')).rejects.toThrow();
    expect((await run.state()).tasks[0]?.running).toBe(true);
    await expect(run.call('schedules.runNow', { id: saved.id })).rejects.toThrow('turn_in_progress');
    expect((await run.state()).runs).toEqual([expect.objectContaining({ status: 'running' })]);

    await run.call('approvals.answer', { id: request.id, decision: 'approve' });
    await run.core.scheduler.idle();
    expect(await readFile(target, 'utf8')).toBe('All quiet.\n');
    expect((await run.state()).runs).toEqual([
      expect.objectContaining({ status: 'ok', toolCalls: 1, result: 'Written.' }),
    ]);
    expect(server?.requests).toHaveLength(2);
  });

  it("with tool policy 'refuse' a call that needs approval is refused instead of asked", async () => {
    const clock = fakeClock(day(2, 8, 59));
    const run = await start(clock);
    await run.call('schedules.saveTask', { task: task({ toolPolicy: 'refuse' }) });
    server?.enqueue(reply.toolCall('write_file', { path: 'summary.md', content: 'x' }), reply.text('Could not write.'));
    clock.set(day(2, 9, 0, 5));
    await run.tick();
    expect(run.requested).toEqual([]);
    expect(JSON.stringify(server?.requests[1]?.messages)).toContain('approval_required');
    expect((await run.state()).runs).toEqual([expect.objectContaining({ status: 'ok', toolCalls: 1 })]);
  });

  it('refuses a schedule it cannot read, and previews the next runs of one it can', async () => {
    const run = await start(fakeClock(day(2, 8)));
    await expect(run.call('schedules.saveTask', { task: task({ schedule: 'whenever' }) })).rejects.toThrow(
      'invalid_arguments',
    );
    const preview = await run.call<{ cron: string; next: string[] }>('schedules.preview', {
      schedule: 'every weekday at 8:30',
    });
    expect(preview.cron).toBe('30 8 * * 1-5');
    // 2 March 2026 is a Monday.
    expect(preview.next).toEqual([day(2, 8, 30), day(3, 8, 30), day(4, 8, 30)].map((at) => at.toISOString()));
  });
});

describe('the starter HEARTBEAT.md', () => {
  it('is only a heading and a comment, so an enabled heartbeat skips it and asks no model', async () => {
    const run = await start(fakeClock(day(2, 10)));
    await run.call('settings.update', {
      schedules: { heartbeat: { enabled: true, activeFrom: '00:00', activeTo: '00:00' } },
    });
    await run.tick();
    expect(server?.requests).toHaveLength(0);
    expect((await run.state()).runs).toEqual([
      expect.objectContaining({ taskId: 'heartbeat', status: 'skipped', error: 'HEARTBEAT.md has nothing to check.' }),
    ]);
  });
});
