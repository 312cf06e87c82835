import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { callChannel, eventChannel } from '../../../shared/ipc/channels';
import type { ApprovalRequest } from '../../../shared/ipc/approvals';
import type { ChatEvent } from '../../../shared/ipc/chat';
import type { CallName } from '../../../shared/ipc/contract';
import type { Result } from '../../../shared/result';
import type { ConversationProbeResult, SecurityProbeResult } from '../smoke/page-probes';
import type { SmokeSummary } from '../smoke/run-smoke-test';
import { smokeScript } from '../smoke/smoke-script';
import { expectedSmokeChecks } from '../../test-support/smoke-checks';
import { confinementMode, resetConfinementProbe } from '../../platform/processes/confinement';

/**
 * The desktop adapter of `--smoke-test` with Electron faked (the binary cannot run here). The core,
 * the IPC handlers, the scripted model server and the contract are real; the page is a stand-in
 * that does through ipcMain's handlers what the real renderer does through the preload, so what is
 * tested is everything main does for the smoke test. The real renderer runs the same checks in
 * e2e/smoke-test-mode.spec.ts.
 */

type Handler = (event: unknown, input: unknown) => Promise<Result<unknown>>;
type PageBehaviour = {
  /** Never answer the first probe (a hung renderer). */
  readonly hang?: boolean;
  readonly security?: Partial<SecurityProbeResult>;
  /** Console errors the page logs while the conversation runs. */
  readonly consoleErrors?: readonly string[];
};

const electron = vi.hoisted(() => {
  const state = {
    behaviour: {} as PageBehaviour,
    readyGate: Promise.resolve(),
    calls: [] as string[],
    handlers: new Map<string, Handler>(),
    userData: '',
    exited: undefined as Promise<number> | undefined,
    exit: (_code: number) => undefined as void,
    pageListeners: new Map<string, (...args: never[]) => void>(),
    sent: [] as { channel: string; payload: unknown }[],
    onSend: [] as ((channel: string, payload: unknown) => void)[],
    loadedUrl: '',
    evaluate: (_source: string): Promise<unknown> => Promise.resolve(undefined),
  };
  return state;
});

vi.mock('electron', () => {
  const webContents = {
    id: 7,
    on(event: string, listener: (...args: never[]) => void) {
      electron.pageListeners.set(event, listener);
      return webContents;
    },
    send(channel: string, payload: unknown) {
      electron.sent.push({ channel, payload });
      for (const listener of electron.onSend) listener(channel, payload);
    },
    isDestroyed: () => false,
    executeJavaScript: (source: string) => electron.evaluate(source),
  };
  class BrowserWindow {
    readonly webContents = webContents;
    constructor(options: { webPreferences: { preload: string; sandbox: boolean } }) {
      electron.calls.push(`window preload=${options.webPreferences.preload} sandbox=${options.webPreferences.sandbox}`);
    }
    once() {
      return this;
    }
    on() {
      return this;
    }
    loadFile(path: string) {
      electron.loadedUrl = pathToFileURL(path).href;
      electron.calls.push('loadFile');
      return Promise.resolve();
    }
    destroy() {
      electron.calls.push('destroy');
    }
  }
  return {
    app: {
      isPackaged: true,
      setPath: (name: string, path: string) => {
        electron.calls.push(`setPath ${name}`);
        electron.userData = path;
      },
      enableSandbox: () => electron.calls.push('enableSandbox'),
      on: () => undefined,
      whenReady: () => {
        electron.calls.push('whenReady');
        return electron.readyGate;
      },
      exit: (code: number) => electron.exit(code),
    },
    BrowserWindow,
    ipcMain: { handle: (channel: string, handler: Handler) => electron.handlers.set(channel, handler) },
    session: {
      defaultSession: {
        setPermissionRequestHandler: () => undefined,
        setPermissionCheckHandler: () => undefined,
        webRequest: { onHeadersReceived: () => undefined },
      },
    },
    shell: { openExternal: () => Promise.resolve() },
    safeStorage: { isAsyncEncryptionAvailable: () => Promise.resolve(false) },
  };
});

const { isSmokeTest, startSmokeTest } = await import('./smoke-test');

/** What the renderer does, done through the registered handlers as the preload would call them. */
async function fakeRenderer(source: string): Promise<unknown> {
  const behaviour = electron.behaviour;
  if (behaviour.hang === true) return new Promise(() => undefined);
  const frameEvent = { senderFrame: { url: electron.loadedUrl, parent: null }, sender: { id: 7 } };
  const call = async (name: CallName, input: unknown) => {
    const answer = await electron.handlers.get(callChannel(name))!(frameEvent, input);
    if (!answer.ok) throw new Error(`${name}: ${answer.error.message}`);
    return answer.value as Record<string, unknown>;
  };
  if (source.startsWith('/* familiar-smoke:conversation */')) {
    const approval = new Promise<ApprovalRequest>((resolve) =>
      electron.onSend.push((channel, payload) => {
        if (channel === eventChannel('approvals.requested')) resolve(payload as ApprovalRequest);
      }),
    );
    const finished = new Promise<ChatEvent>((resolve) =>
      electron.onSend.push((channel, payload) => {
        const event = payload as ChatEvent;
        if (channel === eventChannel('chat.event') && event.type.startsWith('turn-') && event.type !== 'turn-started') {
          resolve(event);
        }
      }),
    );
    const conversation = await call('conversations.create', {});
    await call('chat.send', { conversationId: conversation['id'], text: smokeScript.userMessage });
    const request = await approval;
    await call('approvals.answer', { id: request.id, decision: 'approve' });
    const end = await finished;
    const console = electron.pageListeners.get('console-message') as (details: {
      level: string;
      message: string;
    }) => void;
    for (const message of behaviour.consoleErrors ?? []) console({ level: 'error', message });
    const result: ConversationProbeResult = {
      reached: ['renderer', 'sent', 'approval-shown', 'diff-editor', 'approved', 'tool-result', 'replied'],
      approvalNamedFile: request.paths.includes(smokeScript.file),
      toolOutcome: end.type === 'turn-finished' ? 'ok' : end.type,
    };
    return result;
  }
  const security: SecurityProbeResult = {
    bridgeKeys: ['invoke', 'on'],
    bridgeFunctionsOnly: true,
    nodeGlobals: [],
    inlineScriptRan: false,
    violatedDirective: 'script-src-elem',
    metaPolicy: "default-src 'self'; script-src 'self'",
    ...behaviour.security,
  };
  return security;
}

async function run(behaviour: PageBehaviour, options: { deadlineMs?: number; ready?: Promise<void> } = {}) {
  Object.assign(electron, {
    behaviour,
    readyGate: options.ready ?? Promise.resolve(),
    calls: [],
    sent: [],
    onSend: [],
    evaluate: fakeRenderer,
  });
  electron.handlers.clear();
  const output: string[] = [];
  const exitCode = new Promise<number>((resolve) => (electron.exit = resolve));
  void startSmokeTest({ deadlineMs: options.deadlineMs ?? 30_000, write: (text) => output.push(text) });
  const code = await exitCode;
  expect(output).toHaveLength(1);
  expect(output[0]).toMatch(/^\{.*\}\n$/);
  return { code, summary: JSON.parse(output[0]!) as SmokeSummary };
}

/**
 * The packaged app's resources folder (Electron's process.resourcesPath; the fake app says it is
 * packaged): with the ripgrep the release ships, a stand-in executable here, unless a test removes it.
 */
const packaged = { resources: '' };
const bundledRg = () => join(packaged.resources, 'ripgrep', 'rg');
beforeAll(async () => {
  packaged.resources = await mkdtemp(join(tmpdir(), 'familiar-resources-'));
  await mkdir(dirname(bundledRg()));
  await writeFile(bundledRg(), '#!/bin/sh\nexit 1\n');
  await chmod(bundledRg(), 0o755);
  (process as { resourcesPath?: string }).resourcesPath = packaged.resources;
});
afterAll(async () => {
  delete (process as { resourcesPath?: string }).resourcesPath;
  await rm(packaged.resources, { recursive: true, force: true });
});

const checkNamed = (summary: SmokeSummary, name: string) => summary.checks.find((check) => check.name === name);

afterEach(async () => {
  // The scratch home's parent holds the home and the project folder.
  if (electron.userData !== '') await rm(dirname(electron.userData), { recursive: true, force: true });
});

describe('Familiar --smoke-test (desktop adapter)', () => {
  it('is chosen by the flag alone', () => {
    expect(isSmokeTest(['/opt/Familiar/familiar', '--smoke-test'])).toBe(true);
    expect(isSmokeTest(['/opt/Familiar/familiar'])).toBe(false);
  });

  it('runs the conversation through the real IPC handlers and core, prints one JSON line and exits 0', async () => {
    const { code, summary } = await run({});
    expect(summary.checks.map((check) => check.name)).toEqual(expectedSmokeChecks);
    // The confinement check runs a real command: where this machine cannot confine one (no bwrap,
    // user namespaces off), the smoke test must fail, on that check alone, saying why.
    const mode = confinementMode();
    if (mode.confined) {
      expect(summary.checks.filter((check) => !check.ok)).toEqual([]);
      expect(checkNamed(summary, 'confinement')?.detail).toBe(
        "confined: inside written, outside refused, Familiar's settings refused",
      );
      expect(code).toBe(0);
      expect(summary.ok).toBe(true);
    } else {
      expect(summary.checks.filter((check) => !check.ok).map((check) => check.name)).toEqual(['confinement']);
      expect(checkNamed(summary, 'confinement')?.detail).toContain(mode.reason);
      expect(code).toBe(1);
    }
    expect(summary.facts).toMatchObject({ mode: 'desktop', signed: false, packaged: true });
    // The scratch home replaces userData before Electron is ready, and is gone afterwards.
    expect(electron.calls.indexOf('setPath userData')).toBeLessThan(electron.calls.indexOf('whenReady'));
    expect(electron.userData).toContain('familiar-smoke-');
    expect(existsSync(electron.userData)).toBe(false);
    expect(electron.calls.find((call) => call.startsWith('window'))).toMatch(/preload=.*index\.cjs sandbox=true$/);
    expect(electron.calls).toContain('destroy');
  });

  it('fails (exit 1) when the page runs an inline script or sees no bridge', async () => {
    const { code, summary } = await run({
      security: { inlineScriptRan: true, violatedDirective: null, bridgeKeys: null },
    });
    expect(code).toBe(1);
    expect(summary.ok).toBe(false);
    expect(checkNamed(summary, 'csp')).toMatchObject({ ok: false, detail: expect.stringContaining('RAN') as string });
    expect(checkNamed(summary, 'bridge')?.ok).toBe(false);
    expect(checkNamed(summary, 'tool')?.ok).toBe(true);
  });

  it('fails (exit 1) when the command ran unconfined: it wrote outside the workspace and read the settings', async () => {
    vi.stubEnv('FAMILIAR_UNCONFINED', '1');
    resetConfinementProbe();
    try {
      const { code, summary } = await run({});
      expect(code).toBe(1);
      expect(summary.checks.filter((check) => !check.ok).map((check) => check.name)).toEqual(['confinement']);
      expect(checkNamed(summary, 'confinement')?.detail).toBe(
        'the command ran UNCONFINED: FAMILIAR_UNCONFINED=1 is set in the environment Familiar was started with. ' +
          "(inside written, outside written, Familiar's settings read)",
      );
    } finally {
      vi.unstubAllEnvs();
      resetConfinementProbe();
    }
  });

  it('fails (exit 1) when the packaged app has no ripgrep of its own (search would use PATH or none)', async () => {
    expect(checkNamed((await run({})).summary, 'ripgrep')).toEqual({
      name: 'ripgrep',
      ok: true,
      detail: `search uses ripgrep (bundled): ${bundledRg()}`,
    });
    await rm(bundledRg());
    try {
      const { code, summary } = await run({});
      expect(code).toBe(1);
      expect(checkNamed(summary, 'ripgrep')).toMatchObject({
        ok: false,
        detail: expect.stringMatching(/^the packaged ripgrep is missing: search uses /) as string,
      });
    } finally {
      await writeFile(bundledRg(), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    }
  });

  it('fails when the page logged an error', async () => {
    const { code, summary } = await run({ consoleErrors: ['Refused to load the script chunk.js'] });
    expect(code).toBe(1);
    expect(checkNamed(summary, 'page-errors')).toMatchObject({
      ok: false,
      detail: 'Refused to load the script chunk.js',
    });
  });

  it('ends a run that hangs at the deadline with exit 1', async () => {
    const { code, summary } = await run({ hang: true }, { deadlineMs: 1500, ready: new Promise(() => undefined) });
    expect(code).toBe(1);
    expect(summary.checks).toEqual([{ name: 'deadline', ok: false, detail: 'not finished within 1500 ms' }]);
  });
});
