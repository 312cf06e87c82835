import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { calls, callNames, eventNames } from '../../../shared/ipc/contract';
import type { CallName, EventName, FamiliarApi } from '../../../shared/ipc/contract';
import type * as CreateCore from '../../core/create-core';
import type { Core } from '../../core/create-core';

/**
 * The desktop path end to end, in process: the real startDesktop (main/electron), the real preload
 * and the real core, with only the `electron` module replaced by fakes that carry messages the
 * way Electron does (structured clone both ways, one handler per channel, the sender's frame on
 * every invoke). The page API is what the preload hands contextBridge, exactly as the page gets it.
 */

type Handler = (event: unknown, input: unknown) => unknown;
type RendererListener = (event: unknown, payload: unknown) => void;

const bus = vi.hoisted(() => ({
  handlers: new Map<string, Handler>(),
  rendererListeners: new Map<string, Set<RendererListener>>(),
  exposed: new Map<string, unknown>(),
  /** The URL the window loaded: the page's frame sends from it. */
  frameUrl: '',
  /** A test may send from a subframe, which the real sender check must refuse. */
  fromSubframe: false,
  home: '',
  cores: [] as unknown[],
}));

vi.mock('electron', async () => {
  const path = await import('node:path');
  const url = await import('node:url');
  const { quietElectron, QuietApp, QuietWindow } = await import('../../test-support/electron-fakes');

  const webContents = {
    id: 1,
    isDestroyed: () => false,
    on: () => undefined,
    // main → page: what forwardEvents sends reaches every ipcRenderer listener of that channel.
    send: (channel: string, payload: unknown) => {
      for (const listener of bus.rendererListeners.get(channel) ?? [])
        listener({ sender: null }, structuredClone(payload));
    },
  };

  class FakeBrowserWindow extends QuietWindow {
    webContents = webContents;
    constructor(readonly options: unknown) {
      super();
    }
    override loadFile = (file: string) => {
      bus.frameUrl = url.pathToFileURL(file).href;
      return Promise.resolve();
    };
    override loadURL = (address: string) => {
      bus.frameUrl = address;
      return Promise.resolve();
    };
  }

  class FakeApp extends QuietApp {
    override getPath = (name: string) => (name === 'userData' ? bus.home : path.join(bus.home, '..', name));
  }

  return {
    app: new FakeApp(),
    BrowserWindow: FakeBrowserWindow,
    ipcMain: {
      handle: (channel: string, handler: Handler) => {
        if (bus.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
        bus.handlers.set(channel, handler);
      },
    },
    // page → main: the handler gets the sender and its frame, and both ways cross a structured clone.
    ipcRenderer: {
      invoke: async (channel: string, input: unknown) => {
        const handler = bus.handlers.get(channel);
        if (handler === undefined) throw new Error(`No handler registered for '${channel}'`);
        const event = {
          sender: webContents,
          senderFrame: { url: bus.frameUrl, parent: bus.fromSubframe ? {} : null },
        };
        return structuredClone(await handler(event, structuredClone(input)));
      },
      on: (channel: string, listener: RendererListener) => {
        const listeners = bus.rendererListeners.get(channel) ?? new Set();
        listeners.add(listener);
        bus.rendererListeners.set(channel, listeners);
      },
      removeListener: (channel: string, listener: RendererListener) => {
        bus.rendererListeners.get(channel)?.delete(listener);
      },
    },
    contextBridge: {
      exposeInMainWorld: (key: string, api: unknown) => void bus.exposed.set(key, api),
    },
    dialog: {
      showErrorBox: (title: string, content: string) => {
        throw new Error(`${title}: ${content}`);
      },
      showMessageBox: () => Promise.resolve({ response: 1 }),
      showOpenDialog: () => Promise.resolve({ canceled: true, filePaths: [] }),
      showSaveDialog: () => Promise.resolve({ canceled: true }),
    },
    ...quietElectron,
    shell: { openExternal: () => Promise.resolve(), showItemInFolder: () => undefined },
    clipboard: { writeText: () => undefined },
    safeStorage: { isAsyncEncryptionAvailable: () => Promise.resolve(false) },
    // Provider requests would go through Electron's net.fetch; none are made here.
    net: { fetch: (...args: Parameters<typeof fetch>) => fetch(...args) },
  };
});
// No real login shell in a unit test: the adapter then keeps the PATH it has.
vi.mock('../../platform/processes/login-shell-path', () => ({
  readLoginShellPath: () => Promise.resolve({ ok: false, error: { code: 'not_found', message: 'not in tests' } }),
}));
// electron-updater needs the real Electron; the update prompts have their own tests.
vi.mock('./desktop-updates', () => ({ createDesktopUpdates: () => ({ check: () => Promise.resolve() }) }));
// The real core, kept so the test can emit events from it and dispose it afterwards.
vi.mock('../../core/create-core', async (importOriginal) => {
  const actual = await importOriginal<typeof CreateCore>();
  return {
    ...actual,
    createCore: async (...args: Parameters<typeof actual.createCore>) => {
      const core = await actual.createCore(...args);
      bus.cores.push(core);
      return core;
    },
  };
});

let page: FamiliarApi;
let core: Core;

beforeAll(async () => {
  bus.home = join(await mkdtemp(join(tmpdir(), 'familiar-desktop-')), 'userData');
  const { startDesktop } = await import('./start-desktop');
  await startDesktop();
  // The preload runs in the page's isolated world once the window loads; here, once main is up.
  await import('../../../preload/index');
  page = bus.exposed.get('familiar') as FamiliarApi;
  core = bus.cores[0] as Core;
}, 30_000);

afterAll(async () => {
  await core.dispose('test over');
  await rm(join(bus.home, '..'), { recursive: true, force: true });
});

/** A value no call accepts: every input is an object. */
const junk = 'not an input';

/** Calls that take {} and only read (or, for conversations.create, write in the temp home). */
const emptyInputCalls: readonly CallName[] = [
  'app.info',
  'app.confinement',
  'settings.get',
  'tools.list',
  'policy.get',
  'persona.info',
  'approvals.list',
  'conversations.list',
  'conversations.create',
  'providers.status',
  'transfers.pending',
  'workspace.chooseFolder',
  'languageServers.list',
  'skills.list',
];

describe('the desktop round trip (preload ↔ ipcMain ↔ core)', () => {
  it('exposes only the page API, and the window loaded the page the sender check trusts', () => {
    expect([...bus.exposed.keys()]).toEqual(['familiar']);
    expect(Object.keys(page).sort()).toEqual(['invoke', 'on']);
    expect(bus.frameUrl).toMatch(/^file:.*\/renderer\/index\.html$/);
    expect([...bus.handlers.keys()]).toHaveLength(callNames.length);
  });

  it('carries every contract call to the core: an invalid input comes back refused by that call', async () => {
    for (const name of callNames) {
      expect(calls[name].input.safeParse(junk).success, name).toBe(false);
      const result = await page.invoke(name, junk as never);
      expect(result, name).toMatchObject({ ok: false, error: { code: 'invalid_payload', details: { call: name } } });
    }
  });

  it('answers calls with values that hold to the contract', async () => {
    for (const name of emptyInputCalls) {
      const result = await page.invoke(name, {});
      expect(result.ok, `${name}: ${JSON.stringify(result)}`).toBe(true);
      if (result.ok) expect(calls[name].output.safeParse(result.value).success, name).toBe(true);
    }
    expect(await page.invoke('app.info', {})).toMatchObject({ ok: true, value: { mode: 'desktop' } });
    expect(await page.invoke('workspace.chooseFolder', {})).toEqual({ ok: true, value: { path: null } });
  });

  it('pushes what the core emits to the page: a real change, and every contract event', async () => {
    const changed: unknown[] = [];
    const stop = page.on('settings.changed', (settings) => changed.push(settings.memory.enabled));
    const update = await page.invoke('settings.update', { memory: { enabled: false } });
    expect(update).toMatchObject({ ok: true, value: { memory: { enabled: false } } });
    await vi.waitFor(() => expect(changed).toEqual([false]));
    stop();
    await page.invoke('settings.update', { memory: { enabled: true } });
    expect(changed).toEqual([false]);

    // Transport only: forwardEvents carries any payload, so a marker names each event. Main's own
    // listeners read settings.changed (the menu language), so that one carries real settings.
    const settings = await page.invoke('settings.get', {});
    const payloadOf = (name: EventName) =>
      name === 'settings.changed' && settings.ok ? settings.value : { probe: name };
    const received = new Map<string, unknown>();
    const stops = eventNames.map((name) => page.on(name, (payload) => received.set(name, payload)));
    for (const name of eventNames) core.events.emit(name, payloadOf(name) as never);
    expect(Object.fromEntries(received)).toEqual(Object.fromEntries(eventNames.map((name) => [name, payloadOf(name)])));
    for (const unsubscribe of stops) unsubscribe();
  });

  it('refuses a call from a subframe, and names unknown calls and events on the page side', async () => {
    bus.fromSubframe = true;
    try {
      expect(await page.invoke('app.info', {})).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
    } finally {
      bus.fromSubframe = false;
    }
    expect(await page.invoke('app.nothing' as CallName, {})).toMatchObject({
      ok: false,
      error: { code: 'unknown_call' },
    });
    expect(() => page.on('app.nothing' as EventName, () => undefined)).toThrow(TypeError);
  });
});
