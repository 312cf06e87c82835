import { messageOf } from '../../../shared/errors';
import { app, ipcMain, session } from 'electron';
import type { BrowserWindow } from 'electron';
import type { FamiliarApi } from '../../../shared/ipc/contract';
import { createCore } from '../../core/create-core';
import type { Core } from '../../core/create-core';
import { createStderrLogger } from '../../platform/logging/logger';
import { runSmokeTest } from '../smoke/run-smoke-test';
import type { SmokeSummary } from '../smoke/run-smoke-test';
import { createScratchHome } from '../../platform/storage/scratch-home';
import type { ScratchHome } from '../../platform/storage/scratch-home';
import { familiarVersion } from '../../core/version';
import { appFiles } from './app-files';
import { buildInfo } from './build-info';
import { installContentSecurityPolicy } from './content-security-policy';
import { forwardEvents, registerContractHandlers } from './ipc-main';
import { createSafeStorageCipher } from './safe-storage-cipher';
import { createSenderCheck, guardWebContents, hardenSession } from './security';
import { createMainWindow } from './window';

export const smokeTestFlag = '--smoke-test';

export const isSmokeTest = (argv: readonly string[]): boolean => argv.includes(smokeTestFlag);

export interface SmokeTestOptions {
  /** The whole run, start to exit; the release workflow allows a minute. */
  readonly deadlineMs?: number;
  /** Where the JSON summary goes (stdout; logs go to stderr). */
  readonly write?: (text: string) => void;
}

/**
 * `Familiar --smoke-test`: the installed app, started by the release workflow on every runner, proves
 * it works there and exits: 0 when every check passed, 1 otherwise, with one line of JSON on stdout.
 * It runs the real core, window, preload and renderer as a user's start does (main/front-doors/smoke says what it
 * checks), but in a scratch home, so it never reads or writes the user's own data, and with no
 * updates, menu or remembered window placement.
 */
export async function startSmokeTest(options: SmokeTestOptions = {}): Promise<void> {
  const deadlineMs = options.deadlineMs ?? 55_000;
  const write = options.write ?? ((text: string) => void process.stdout.write(text));
  const logger = createStderrLogger('smoke-test');
  const facts = {
    mode: 'desktop',
    version: familiarVersion,
    platform: process.platform,
    arch: process.arch,
    packaged: app.isPackaged,
    signed: buildInfo.signed,
  };
  let scratch: ScratchHome | undefined;
  let core: Core | undefined;
  let window: BrowserWindow | undefined;
  let finished = false;

  const finish = async (summary: SmokeSummary, cleanUp: boolean) => {
    if (finished) return;
    finished = true;
    clearTimeout(deadline);
    write(`${JSON.stringify(summary)}\n`);
    if (cleanUp) {
      window?.destroy();
      await core?.dispose('The smoke test finished.').catch((error: unknown) => logger.warn(String(error)));
      await scratch?.remove();
    } else if (scratch !== undefined) {
      logger.warn(`left ${scratch.home} behind: the run did not finish`);
    }
    app.exit(summary.ok ? 0 : 1);
  };
  const failed = (name: string, detail: string): SmokeSummary => ({
    ok: false,
    durationMs: deadlineMs,
    facts,
    checks: [{ name, ok: false, detail }],
  });
  // A hung page or core must still end the run: report and exit without waiting on either.
  const deadline = setTimeout(
    () => void finish(failed('deadline', `not finished within ${deadlineMs} ms`), false),
    deadlineMs,
  );

  try {
    scratch = await createScratchHome('familiar-smoke-');
    // Before ready, so Chromium's profile (caches, storage, the single-instance lock) is scratch too.
    app.setPath('userData', scratch.home);
    app.enableSandbox();
    const { rendererIndex, preload, page } = appFiles(undefined);
    // The same guard as a user's start; the run opens no links, so none reaches the system browser.
    app.on('web-contents-created', (_event, contents) => guardWebContents(contents, page, () => undefined));
    await app.whenReady();
    hardenSession(session.defaultSession);
    installContentSecurityPolicy(session.defaultSession.webRequest);
    core = await createCore({
      home: scratch.home,
      workspace: scratch.workspace,
      mode: 'desktop',
      version: familiarVersion,
      logger,
      secretCipher: createSafeStorageCipher(),
      // As a user's start: the packaged app searches with the ripgrep it ships (checked below).
      resourcesDir: app.isPackaged ? process.resourcesPath : undefined,
    });
    registerContractHandlers(ipcMain, core.dispatch, createSenderCheck(page));
    const shown = createMainWindow(preload, { bounds: { width: 1200, height: 800 }, maximized: false });
    window = shown;
    const pageErrors: string[] = [];
    shown.webContents.on('console-message', (details) => {
      if (details.level === 'error') pageErrors.push(details.message);
    });
    shown.webContents.on('preload-error', (_event, path, error) =>
      pageErrors.push(`preload ${path}: ${error.message}`),
    );
    shown.webContents.on('render-process-gone', (_event, details) =>
      pageErrors.push(`the renderer process is gone: ${details.reason}`),
    );
    const stopForwarding = forwardEvents(core.events, shown.webContents);
    shown.on('closed', stopForwarding);

    const dispatch = core.dispatch;
    const invoke = ((name: unknown, input: unknown) =>
      dispatch(name, input, { transport: 'direct', clientId: 'smoke-test' })) as FamiliarApi['invoke'];
    const summary = await runSmokeTest({
      core: { invoke },
      page: {
        load: () => shown.loadFile(rendererIndex),
        evaluate: (source) => shown.webContents.executeJavaScript(source, true) as Promise<unknown>,
        errors: () => pageErrors,
      },
      bridge: 'preload',
      requireBundledRipgrep: app.isPackaged,
      conversationTimeoutMs: Math.max(1000, deadlineMs - 15_000),
      facts,
    });
    await finish(summary, true);
  } catch (error) {
    await finish(failed('start', messageOf(error)), true);
  }
}
