import { mkdir } from 'node:fs/promises';
import type { AppInfo } from '../../shared/ipc/app';
import { createDispatcher } from '../ipc/dispatcher';
import type { Dispatch, Handlers } from '../ipc/dispatcher';
import { createEventHub } from '../ipc/event-hub';
import type { EventHub } from '../ipc/event-hub';
import { familiarPaths } from '../storage/paths';
import { openSettingsStore } from '../storage/settings-store';
import type { SettingsStore } from '../storage/settings-store';
import type { FamiliarPaths } from '../storage/paths';
import { createAppHandlers } from './app-handlers';
import type { Logger } from './logger';
import { createSettingsHandlers } from './settings-handlers';

export interface CoreOptions {
  readonly home: string;
  /** The folder the assistant works on; defaults to the workspace inside the Familiar home. */
  readonly workspace?: string | undefined;
  readonly mode: AppInfo['mode'];
  readonly version: string;
  readonly logger: Logger;
}

/** Everything main does, with no Electron in sight: both adapters and the tests drive this. */
export interface Core {
  readonly dispatch: Dispatch;
  readonly events: EventHub;
  readonly paths: FamiliarPaths;
  readonly settings: SettingsStore;
  dispose(reason: string): Promise<void>;
}

export async function createCore(options: CoreOptions): Promise<Core> {
  const paths = familiarPaths(options.home);
  const workspacePath = options.workspace ?? paths.defaultWorkspace;
  await mkdir(paths.home, { recursive: true, mode: 0o700 });
  await mkdir(workspacePath, { recursive: true });

  const events = createEventHub((error) => options.logger.error('event listener failed', error));
  const settings = await openSettingsStore(paths.settingsFile, options.logger);
  settings.subscribe((next) => events.emit('settings.changed', next));
  const handlers: Handlers = {
    ...createAppHandlers(() => ({
      name: 'Familiar',
      version: options.version,
      mode: options.mode,
      platform: process.platform,
      workspacePath,
      homePath: paths.home,
    })),
    ...createSettingsHandlers(settings),
  };
  const dispatch = createDispatcher(handlers, {
    logError: (message, error) => options.logger.error(message, error),
  });

  return {
    dispatch,
    events,
    paths,
    settings,
    dispose(reason) {
      events.emit('app.shutdown', { reason });
      return Promise.resolve();
    },
  };
}
