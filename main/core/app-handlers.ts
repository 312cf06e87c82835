import type { AppInfo, ConfinementInfo } from '../../shared/ipc/app';
import { ok } from '../../shared/result';
import type { Handlers } from '../platform/ipc/dispatcher';

export type AppHandlers = Pick<Handlers, 'app.info' | 'app.confinement'>;

/** `confinement`: asked on each call, so it follows the open workspace and the settings. */
export function createAppHandlers(info: () => AppInfo, confinement: () => Promise<ConfinementInfo>): AppHandlers {
  return {
    'app.info': () => ok(info()),
    'app.confinement': async () => ok(await confinement()),
  };
}
