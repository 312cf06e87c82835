import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { QuietApp, QuietTray, QuietWindow } from '../../test-support/electron-fakes';

const logs = await mkdtemp(join(tmpdir(), 'familiar-start-'));
afterAll(() => rm(logs, { recursive: true, force: true }));

/** The order things happened in, across the fakes below. */
const calls: string[] = [];

class FakeApp extends QuietApp {
  ended = false;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- EventEmitter's own listener type.
  override on(name: string, listener: (...args: any[]) => void): this {
    calls.push(`on ${name}`);
    return super.on(name, listener);
  }
  override releaseSingleInstanceLock = () => void calls.push('release lock');
  override exit = (code: number) => void calls.push(`exit ${code}`);
  override quit = () => {
    calls.push('quit');
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (!prevented) this.ended = true;
  };
  override getPath = (name: string) => (name === 'logs' ? logs : join(logs, name));
  override whenReady = () => {
    calls.push('whenReady');
    return Promise.resolve();
  };
}

class FakeWindow extends QuietWindow {
  webContents = { send: vi.fn(), isDestroyed: () => false, on: vi.fn() };
}

let app = new FakeApp();
/** The window and tray the adapter made last, and every menu template it built. */
let lastWindow: FakeWindow | undefined;
const trays: QuietTray[] = [];
const templates: { label?: string; click?: () => void }[][] = [];
class RecordingTray extends QuietTray {
  constructor() {
    super();
    trays.push(this);
  }
}
const showErrorBox = vi.fn((title: string, content: string) => void calls.push(`error box ${title}: ${content}`));
const showMessageBox = vi.fn(() => Promise.resolve({ response: 1 }));

vi.mock('electron', async () => ({
  ...(await import('../../test-support/electron-fakes')).quietElectron,
  get app() {
    return app;
  },
  BrowserWindow: FakeWindow,
  Tray: RecordingTray,
  Menu: {
    buildFromTemplate: (template: { label?: string; click?: () => void }[]) => {
      templates.push(template);
      return {};
    },
    setApplicationMenu: () => undefined,
  },
  dialog: { showErrorBox, showMessageBox },
  ipcMain: { handle: () => undefined },
  shell: { openExternal: vi.fn(), showItemInFolder: vi.fn() },
  clipboard: { writeText: vi.fn() },
  safeStorage: {},
  net: { fetch: vi.fn() },
}));
// The window constructor is covered by window.test.ts; electron-updater needs the real Electron.
vi.mock('./window', () => ({ createMainWindow: () => (lastWindow = new FakeWindow()) }));
// No real login shell in a unit test: the adapter then keeps the PATH it has.
vi.mock('../../platform/processes/login-shell-path', () => ({
  readLoginShellPath: () => Promise.resolve({ ok: false, error: { code: 'not_found', message: 'not in tests' } }),
}));
vi.mock('./desktop-updates', () => ({
  createDesktopUpdates: () => ({ check: () => Promise.resolve() }),
}));

const createCore = vi.fn<(...args: unknown[]) => Promise<unknown>>();
vi.mock('../../core/create-core', () => ({ createCore: (...args: unknown[]) => createCore(...args) }));

const { startDesktop } = await import('./start-desktop');

function fakeCore(running: { reply: boolean }) {
  return {
    dispatch: vi.fn(),
    events: { subscribe: () => () => undefined, emit: vi.fn() },
    chat: { anyRunning: () => running.reply },
    settings: { get: () => ({ ui: { language: 'system' } }) },
    assistant: { broker: { pending: () => [] } },
    dispose: vi.fn(() => {
      calls.push('dispose');
      return Promise.resolve();
    }),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

beforeEach(() => {
  calls.length = 0;
  app = new FakeApp();
  createCore.mockReset();
  showMessageBox.mockClear();
});

describe('startDesktop', () => {
  it('listens for a second instance before anything async', async () => {
    createCore.mockResolvedValue(fakeCore({ reply: false }));
    await startDesktop();
    expect(calls.indexOf('on second-instance')).toBeGreaterThanOrEqual(0);
    expect(calls.indexOf('on second-instance')).toBeLessThan(calls.indexOf('whenReady'));
  });

  it('shows a failed start in a dialog naming the log file, releases the lock and exits', async () => {
    createCore.mockRejectedValue(new Error('settings.json is not valid JSON'));
    await startDesktop();
    const box = calls.find((call) => call.startsWith('error box'));
    expect(box).toContain('settings.json is not valid JSON');
    expect(box).toContain(join(logs, 'main.log'));
    expect(calls.slice(-2)).toEqual(['release lock', 'exit 1']);
    expect(await readFile(join(logs, 'main.log'), 'utf8')).toContain('settings.json is not valid JSON');
  });

  it('disposes the core once before quitting, whichever way the quit came', async () => {
    const core = fakeCore({ reply: false });
    createCore.mockResolvedValue(core);
    await startDesktop();
    app.quit();
    // Held back until the core is disposed.
    expect(app.ended).toBe(false);
    await settle();
    expect(core.dispose).toHaveBeenCalledTimes(1);
    expect(app.ended).toBe(true);
    expect(calls.filter((call) => call === 'dispose' || call === 'quit')).toEqual(['quit', 'dispose', 'quit']);
  });

  it('asks before quitting during a reply; Cancel keeps Familiar running', async () => {
    const core = fakeCore({ reply: true });
    createCore.mockResolvedValue(core);
    await startDesktop();
    app.quit();
    await settle();
    expect(showMessageBox).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'Familiar is still writing a reply.' }),
    );
    expect(core.dispose).not.toHaveBeenCalled();
    expect(app.ended).toBe(false);
  });

  it('hands the core a visible default workspace, Electron net.fetch for provider requests, and a collection after the start', async () => {
    createCore.mockResolvedValue(fakeCore({ reply: false }));
    await startDesktop();
    const options = createCore.mock.calls[0]?.[0] as {
      visibleDefaultWorkspace?: string;
      fetch?: unknown;
      collectAfterStart?: boolean;
    };
    expect(options.visibleDefaultWorkspace).toBe(join(logs, 'home', 'Familiar'));
    expect(typeof options.fetch).toBe('function');
    expect(options.collectAfterStart).toBe(true);
  });

  it('keeps running in the tray when the window closes; Quit in the tray disposes the core and quits', async () => {
    const core = fakeCore({ reply: false });
    createCore.mockResolvedValue(core);
    const hidden = vi.fn();
    await startDesktop();
    if (lastWindow === undefined || trays.length === 0) throw new Error('no window or tray');
    lastWindow.hide = hidden;
    const close = { preventDefault: vi.fn() };
    lastWindow.emit('close', close);
    app.emit('window-all-closed');
    await settle();
    expect(close.preventDefault).toHaveBeenCalled();
    expect(hidden).toHaveBeenCalledTimes(1);
    expect(core.dispose).not.toHaveBeenCalled();
    expect(calls).not.toContain('quit');

    const quitItem = templates.flat().find((item) => item.label === 'Quit Familiar');
    quitItem?.click?.();
    await settle();
    expect(core.dispose).toHaveBeenCalledTimes(1);
    expect(app.ended).toBe(true);
  });

  it('asks in the language the settings chose', async () => {
    const core = { ...fakeCore({ reply: true }), settings: { get: () => ({ ui: { language: 'ru' } }) } };
    createCore.mockResolvedValue(core);
    await startDesktop();
    app.quit();
    await settle();
    expect(showMessageBox).toHaveBeenCalledWith(expect.objectContaining({ message: 'Familiar ещё пишет ответ.' }));
  });
});
