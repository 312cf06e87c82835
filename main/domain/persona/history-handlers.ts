import { err, ok } from '../../../shared/result';
import type { Handlers } from '../../platform/ipc/dispatcher';
import { frozenForUser } from '../policy/persona-rules';
import type { PersonaFileName } from '../policy/persona-rules';
import type { PersonaHistory } from './persona-history';
import type { PersonaFolder } from './persona-folder';
import { readPersonaFile } from './persona-files';

export type HistoryHandlers = Pick<
  Handlers,
  'history.list' | 'history.get' | 'history.revert' | 'persona.read' | 'persona.write'
>;

/**
 * The user's side of the persona files. Reading and listing history always work; while memory is
 * off, USER.md and MEMORY.md are read-only here too, so switching memory off really freezes them.
 */
export function createHistoryHandlers(
  personaFolder: PersonaFolder,
  history: PersonaHistory,
  memoryEnabled: () => boolean,
): HistoryHandlers {
  const frozen = (file: PersonaFileName) => frozenForUser(file, memoryEnabled());
  const frozenError = (file: PersonaFileName) =>
    err('permission_denied', `${file} is read-only while memory is switched off. Switch memory on to change it.`, {
      reason: 'memory_off',
    });
  return {
    'history.list': async ({ file }) =>
      ok({ versions: await history.store.list(file), current: await readPersonaFile(personaFolder, file) }),
    'history.get': async ({ file, id }) => {
      const version = await history.store.get(file, id);
      return version === undefined ? err('not_found', `There is no version ${id} of ${file}.`) : ok(version);
    },
    'history.revert': async ({ file, id }) => (frozen(file) ? frozenError(file) : history.revert(file, id)),
    'persona.read': async ({ file }) => ok({ text: await readPersonaFile(personaFolder, file) }),
    'persona.write': async ({ file, text }) =>
      frozen(file) ? frozenError(file) : ok(await history.writeByUser(file, text, 'Edited in Familiar')),
  };
}
