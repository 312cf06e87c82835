import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { nativeText } from '../../../shared/i18n/native-strings';
import { failStartup, focusOnSecondInstance, installQuitGuard, quitQuestion } from './lifecycle';
import type { QuitBlocker } from './lifecycle';

const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };

/** Emits an event whose listeners may call preventDefault(); whether one did. */
function emitPreventable(emitter: EventEmitter, event: string): boolean {
  let prevented = false;
  emitter.emit(event, { preventDefault: () => (prevented = true) });
  return prevented;
}

/**
 * Electron's app as far as quitting goes: quit() emits before-quit and, unless a listener prevented
 * it, 'will-quit' and then the process would end (recorded as `ended`).
 */
class FakeApp extends EventEmitter {
  ended = 0;
  quit = vi.fn(() => {
    if (!emitPreventable(this, 'before-quit')) this.ended += 1;
  });
}

class FakeWindow extends EventEmitter {
  closed = 0;
  close = vi.fn(() => {
    if (!emitPreventable(this, 'close')) this.closed += 1;
  });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup(blocking: QuitBlocker | null = null, answer = true) {
  const app = new FakeApp();
  const calls: string[] = [];
  let busy = blocking;
  const dispose = vi.fn(() => {
    calls.push('dispose');
    busy = null;
    return Promise.resolve();
  });
  const confirm = vi.fn((what: QuitBlocker) => {
    calls.push(`confirm ${what}`);
    return Promise.resolve(answer);
  });
  const guard = installQuitGuard({ app: app as never, blocker: () => busy, confirm, dispose, logger });
  return { app, guard, dispose, confirm, calls };
}

describe('the quit guard', () => {
  it('cleans up once, without asking, when Windows ends the session; not when it only asks', async () => {
    const { app, guard, dispose, confirm } = setup('reply');
    const window = new FakeWindow();
    guard.endSession(window as never);
    const asked = { reasons: ['shutdown'], preventDefault: vi.fn() };
    window.emit('query-session-end', asked);
    await settle();
    // Another program may still call the shutdown off: the reply goes on, the shutdown is not held up.
    expect(dispose).not.toHaveBeenCalled();
    expect(asked.preventDefault).not.toHaveBeenCalled();
    window.emit('session-end', { reasons: ['logoff'], preventDefault: vi.fn() });
    window.emit('session-end', { reasons: ['logoff'], preventDefault: vi.fn() });
    await settle();
    expect(confirm).not.toHaveBeenCalled();
    expect(dispose).toHaveBeenCalledTimes(1);
    expect(app.ended).toBe(1);
  });

  it('disposes the core once before any quit (Cmd+Q, menu Quit, app.quit, quitAndInstall)', async () => {
    const { app, dispose } = setup();
    app.quit();
    expect(app.ended).toBe(0);
    app.quit(); // a second Cmd+Q while cleaning up joins the first
    await settle();
    expect(dispose).toHaveBeenCalledTimes(1);
    expect(app.ended).toBe(1);
  });

  it('asks before cutting a reply short, and stays when the user says no', async () => {
    const { app, dispose, confirm } = setup('reply', false);
    app.quit();
    await settle();
    expect(confirm).toHaveBeenCalledWith('reply');
    expect(dispose).not.toHaveBeenCalled();
    expect(app.ended).toBe(0);
  });

  it('quits after the user agrees, with the core disposed first', async () => {
    const { app, calls } = setup('approval', true);
    app.quit();
    await settle();
    expect(calls).toEqual(['confirm approval', 'dispose']);
    expect(app.ended).toBe(1);
  });

  it('does not ask again after an update restart the user already agreed to', async () => {
    const { app, guard, confirm, dispose } = setup('reply', false);
    guard.allowQuit();
    app.quit();
    await settle();
    expect(confirm).not.toHaveBeenCalled();
    expect(dispose).toHaveBeenCalledTimes(1);
    expect(app.ended).toBe(1);
  });

  it('asks when the window is closed during a reply, then closes it; no second question on quit', async () => {
    const { app, guard, confirm } = setup('reply', true);
    const window = new FakeWindow();
    guard.guardWindow(window as never);
    window.close();
    expect(window.closed).toBe(0);
    await settle();
    expect(window.closed).toBe(1);
    app.quit();
    await settle();
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(app.ended).toBe(1);
  });

  it('quits anyway when cleanup hangs, after the timeout', async () => {
    const app = new FakeApp();
    installQuitGuard({
      app: app as never,
      blocker: () => null,
      confirm: () => Promise.resolve(true),
      dispose: () => new Promise(() => undefined),
      logger,
      timeoutMs: 20,
    });
    app.quit();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(app.ended).toBe(1);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('did not finish'));
  });
});

describe('second instance', () => {
  it('shows and focuses the window once there is one', () => {
    const app = new EventEmitter();
    let window: { isMinimized: () => boolean; restore: () => void; show: () => void; focus: () => void } | null = null;
    focusOnSecondInstance(app as never, () => window);
    app.emit('second-instance');
    const calls: string[] = [];
    window = {
      isMinimized: () => true,
      restore: () => calls.push('restore'),
      show: () => calls.push('show'),
      focus: () => calls.push('focus'),
    };
    app.emit('second-instance');
    expect(calls).toEqual(['restore', 'show', 'focus']);
  });
});

describe('startup failure', () => {
  it('logs, shows the error with the log file, releases the lock and exits', () => {
    const calls: string[] = [];
    const app = {
      releaseSingleInstanceLock: () => calls.push('release'),
      exit: (code: number) => calls.push(`exit ${code}`),
    };
    const showErrorBox = vi.fn(() => calls.push('dialog'));
    failStartup({ app: app, showErrorBox, logger, logFile: '/logs/main.log' }, new Error('disk full'));
    expect(showErrorBox).toHaveBeenCalledWith(
      'Familiar could not start',
      expect.stringMatching(/disk full[\s\S]*\/logs\/main\.log/),
    );
    expect(calls).toEqual(['dialog', 'release', 'exit 1']);
    expect(logger.error).toHaveBeenCalledWith('Familiar could not start', expect.any(Error));
  });

  it('speaks the chosen language', () => {
    const app = { releaseSingleInstanceLock: vi.fn(), exit: vi.fn() };
    const showErrorBox = vi.fn();
    failStartup({ app, showErrorBox, logger, logFile: '/l.log', t: nativeText('zh') }, new Error('x'));
    expect(showErrorBox).toHaveBeenCalledWith('Familiar 无法启动', 'x\n\n详细信息见日志文件：\n/l.log');
  });
});

describe('the quit question', () => {
  it('is asked in the chosen language, Cancel being the cautious default', () => {
    const question = quitQuestion('approval', nativeText('ru'));
    expect(question).toMatchObject({
      title: 'Завершить Familiar?',
      message: 'Запрос ждёт вашего разрешения.',
      buttons: ['Завершить', 'Отмена'],
      defaultId: 1,
      cancelId: 1,
    });
    expect(quitQuestion('reply').message).toBe('Familiar is still writing a reply.');
  });
});
