import { beforeEach } from 'vitest';
import type { ConfinementInfo } from '../../shared/ipc/app';
import { ok } from '../../shared/result';
import { useConfinementStore } from '../features/settings/confinement-store';
import { confinementInfo } from './fixtures';
import { pageApi } from './page-api';

/**
 * For a test file whose components show the confinement: before each test the store is emptied and
 * app.confinement answers the default fixture; the returned function changes what it answers.
 */
export function confinementAnsweredInEachTest(): (next: ConfinementInfo) => void {
  let confinement = confinementInfo();
  beforeEach(() => {
    useConfinementStore.setState({ confinement: null, error: null });
    confinement = confinementInfo();
    pageApi.answer('app.confinement', () => ok(confinement));
  });
  return (next) => {
    confinement = next;
  };
}
