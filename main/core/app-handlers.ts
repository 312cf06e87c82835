import type { AppInfo } from '../../shared/ipc/app';
import { ok } from '../../shared/result';
import type { Handlers } from '../platform/ipc/dispatcher';

export type AppHandlers = Pick<Handlers, 'app.info'>;

export function createAppHandlers(info: () => AppInfo): AppHandlers {
  return {
    'app.info': () => ok(info()),
  };
}
