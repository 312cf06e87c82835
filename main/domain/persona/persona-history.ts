import type { VersionSummary } from '../../../shared/ipc/history';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { HistoryStore } from './history-store';
import type { PersonaFolder } from './persona-folder';
import { personaFileNames } from '../policy/persona-rules';
import type { PersonaFileName } from '../policy/persona-rules';
import { readPersonaFile } from './persona-files';

export interface PersonaHistory {
  readonly store: HistoryStore;
  /** Records the files as they are now, if they differ from the last version (first run, outside edits). */
  snapshot(reason: string): Promise<void>;
  /** After the assistant changed a persona file: keep the new text as its version. */
  recordAssistantChange(file: PersonaFileName, conversationId: string, reason: string): Promise<void>;
  /** The user's own edit from the app. */
  writeByUser(file: PersonaFileName, text: string, reason: string): Promise<VersionSummary>;
  revert(file: PersonaFileName, id: string): Promise<Result<VersionSummary>>;
}

export function createPersonaHistory(
  folder: PersonaFolder,
  store: HistoryStore,
  onChange: (file: PersonaFileName) => void,
): PersonaHistory {
  const keep = async (file: PersonaFileName, version: Parameters<HistoryStore['record']>[1]) => {
    const summary = await store.record(file, version);
    onChange(file);
    return summary;
  };
  const recordOutsideEdit = async (file: PersonaFileName, reason: string) => {
    const [latest] = await store.list(file);
    const text = await readPersonaFile(folder, file);
    const latestText = latest === undefined ? undefined : (await store.get(file, latest.id))?.text;
    if (latestText !== text) await keep(file, { text, author: 'user', reason });
  };

  return {
    store,
    async snapshot(reason) {
      for (const file of personaFileNames) await recordOutsideEdit(file, reason);
    },
    async recordAssistantChange(file, conversationId, reason) {
      await keep(file, { text: await readPersonaFile(folder, file), author: 'assistant', reason, conversationId });
    },
    async writeByUser(file, text, reason) {
      await recordOutsideEdit(file, 'Changed outside Familiar');
      const written = await folder.write(file, text);
      if (!written.ok) throw new Error(`could not write ${file}: ${written.error.message}`);
      return keep(file, { text, author: 'user', reason });
    },
    async revert(file, id) {
      const version = await store.get(file, id);
      if (version === undefined) return err('not_found', `There is no version ${id} of ${file}.`);
      await recordOutsideEdit(file, 'Changed outside Familiar');
      const written = await folder.write(file, version.text);
      if (!written.ok) return written;
      const when = new Date(version.at).toISOString().replace('T', ' ').slice(0, 16);
      return ok(
        await keep(file, { text: version.text, author: 'user', reason: `Reverted to the version of ${when} UTC` }),
      );
    },
  };
}
