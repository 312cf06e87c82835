import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { versionSchema } from '../../../shared/ipc/history';
import type { PersonaVersion, VersionSummary } from '../../../shared/ipc/history';
import { writeFileAtomic } from '../../platform/storage/atomic-file';
import { ensureFolder } from '../../platform/storage/folders';
import { appendJsonLines, readJsonLines } from '../../platform/storage/jsonl-file';
import type { PersonaFileName } from '../policy/persona-rules';

export interface NewVersion {
  readonly text: string;
  readonly author: PersonaVersion['author'];
  readonly reason: string;
  readonly conversationId?: string;
}

export interface HistoryStore {
  /** Keeps a version unless the text equals the latest one; answers the latest either way. */
  record(file: PersonaFileName, version: NewVersion): Promise<VersionSummary>;
  list(file: PersonaFileName): Promise<VersionSummary[]>;
  get(file: PersonaFileName, id: string): Promise<PersonaVersion | undefined>;
}

export const DEFAULT_HISTORY_LIMIT = 200;

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- dropping the text is the point
const summarize = ({ text, ...summary }: PersonaVersion): VersionSummary => summary;

/**
 * Version history of the persona files: one append-only JSON-lines file per persona file, fsynced
 * per version, so a crash costs at most the version being written. Bounded: when it grows past
 * 1.5 × the limit, the newest `limit` versions are rewritten atomically (old file or new, never a mix).
 */
export async function openHistoryStore(dir: string, limit = DEFAULT_HISTORY_LIMIT): Promise<HistoryStore> {
  await ensureFolder(dir, 0o700);
  const fileOf = (name: PersonaFileName) => join(dir, `${name}.jsonl`);
  // One queue per persona file: versions of one file are written strictly in order.
  const queues = new Map<PersonaFileName, Promise<unknown>>();
  const serialized = <T>(name: PersonaFileName, task: () => Promise<T>): Promise<T> => {
    const next = (queues.get(name) ?? Promise.resolve()).then(task, task);
    queues.set(
      name,
      next.catch(() => undefined),
    );
    return next;
  };
  const readAll = async (name: PersonaFileName) => (await readJsonLines(fileOf(name), versionSchema)).records;

  return {
    record: (name, version) =>
      serialized(name, async () => {
        const versions = await readAll(name);
        const latest = versions.at(-1);
        if (latest !== undefined && latest.text === version.text) return summarize(latest);
        const entry: PersonaVersion = {
          id: randomUUID(),
          file: name,
          at: new Date().toISOString(),
          author: version.author,
          reason: version.reason.slice(0, 500),
          text: version.text,
          chars: version.text.length,
          ...(version.conversationId === undefined ? {} : { conversationId: version.conversationId }),
        };
        if (versions.length + 1 > limit * 1.5) {
          const kept = [...versions.slice(-(limit - 1)), entry];
          await writeFileAtomic(fileOf(name), kept.map((record) => `${JSON.stringify(record)}\n`).join(''));
        } else {
          await appendJsonLines(fileOf(name), [entry]);
        }
        return summarize(entry);
      }),
    list: async (name) => (await readAll(name)).slice(-limit).reverse().map(summarize),
    get: async (name, id) => (await readAll(name)).find((version) => version.id === id),
  };
}
