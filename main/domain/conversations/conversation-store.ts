import { join } from 'node:path';
import { idSchema } from '../../../shared/ipc/chat';
import type { ConversationSummary } from '../../../shared/ipc/conversations';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { dataFileFacts, moveDataFile } from '../../platform/storage/data-files';
import { ensureFolder, listFolder } from '../../platform/storage/folders';
import { newId } from './ids';
import { readTranscript, TranscriptWriter } from './transcript-file';
import { foldTranscript } from './transcript-fold';
import type { FoldedConversation } from './transcript-fold';
import { stamp } from './transcript-records';
import type { NewRecord, TranscriptRecord } from './transcript-records';
import { deriveTitle, DEFAULT_TITLE, toSummary } from './transcript-view';

export interface LoadedConversation {
  readonly summary: ConversationSummary;
  readonly folded: FoldedConversation;
  readonly skippedLines: number;
}

export type ConversationChange =
  { kind: 'upsert'; conversation: ConversationSummary } | { kind: 'removed'; id: string };

/**
 * The conversations on disk: <dir>/<id>.jsonl, one append-only transcript each, and a trash folder
 * they are moved to on delete. Every write goes through here, so the in-memory list of summaries
 * stays current without rescanning.
 */
export interface ConversationStore {
  list(): Promise<ConversationSummary[]>;
  listTrash(): Promise<ConversationSummary[]>;
  search(query: string): Promise<ConversationSummary[]>;
  /**
   * `incognito`: kept in memory only, never on disk (the transcript is gone when the store closes).
   * Refused with `aborted` once the store is closed.
   */
  create(options?: { incognito?: boolean; held?: boolean }): Promise<Result<ConversationSummary>>;
  /**
   * A `held` conversation (the heartbeat's) is kept in memory, out of the list and its events, until
   * `keep` writes it to disk and shows it, or `discard` forgets it without a trace.
   */
  keep(id: string): Promise<Result<ConversationSummary>>;
  discard(id: string): void;
  /** True for a live incognito conversation: the assistant runs it with memory off. */
  isIncognito(id: string): boolean;
  load(id: string): Promise<Result<LoadedConversation>>;
  /**
   * Appends records (stamped with the time). The first user message also names an untitled
   * conversation. `sync` fsyncs before resolving (turn boundaries). Refused with `aborted` once the
   * store is closed (a late write must not land anywhere); rejects on I/O failure.
   */
  append(id: string, records: readonly NewRecord[], options?: { sync?: boolean }): Promise<Result<void>>;
  rename(id: string, title: string): Promise<Result<ConversationSummary>>;
  moveToTrash(id: string): Promise<Result<void>>;
  restore(id: string): Promise<Result<ConversationSummary>>;
  subscribe(listener: (change: ConversationChange) => void): () => void;
  close(): Promise<void>;
}

interface Entry {
  summary: ConversationSummary;
  titleSource: 'auto' | 'user' | undefined;
}

const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase();

const byNewest = (a: ConversationSummary, b: ConversationSummary) => b.updatedAt.localeCompare(a.updatedAt);

export async function openConversationStore(dirs: {
  conversations: string;
  trash: string;
}): Promise<ConversationStore> {
  const trashDir = join(dirs.trash, 'conversations');
  await ensureFolder(dirs.conversations, 0o700);
  const fileOf = (id: string) => join(dirs.conversations, `${id}.jsonl`);
  const trashFileOf = (id: string) => join(trashDir, `${id}.jsonl`);
  const writers = new Map<string, TranscriptWriter>();
  // Incognito transcripts: in this map and nowhere else, so nothing of them survives a restart.
  const incognito = new Map<string, TranscriptRecord[]>();
  // Held transcripts (the heartbeat's): in memory, unlisted and unannounced until kept or discarded.
  const held = new Map<string, TranscriptRecord[]>();
  const listeners = new Set<(change: ConversationChange) => void>();
  let entries: Map<string, Entry> | undefined;
  // Set by close(): from then on nothing is written. Without it, a write racing shutdown would reopen
  // a transcript writer, and one for a forgotten incognito id would put that conversation on disk.
  let closed = false;

  const emit = (change: ConversationChange) => {
    if (change.kind === 'upsert' && held.has(change.conversation.id)) return;
    for (const listener of listeners) listener(change);
  };
  const writerOf = (id: string) => {
    let writer = writers.get(id);
    if (writer === undefined) {
      writer = new TranscriptWriter(fileOf(id));
      writers.set(id, writer);
    }
    return writer;
  };

  async function readEntry(path: string, id: string, options: { trash?: boolean } = {}) {
    const loaded = await readTranscript(path);
    const folded = foldTranscript(loaded.records);
    const created = (await dataFileFacts(path)).createdAt.toISOString();
    return {
      folded,
      skippedLines: loaded.skippedLines.length,
      summary: toSummary(folded, { id, createdAt: created }, options),
    };
  }

  async function idsIn(dir: string): Promise<string[]> {
    const names = await listFolder(dir).catch(() => [] as string[]);
    return names
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => name.slice(0, -'.jsonl'.length))
      .filter((id) => idSchema.safeParse(id).success);
  }

  async function index(): Promise<Map<string, Entry>> {
    if (entries !== undefined) return entries;
    const loaded = new Map<string, Entry>();
    for (const id of await idsIn(dirs.conversations)) {
      const { summary, folded } = await readEntry(fileOf(id), id);
      loaded.set(id, { summary, titleSource: folded.titleSource });
    }
    entries ??= loaded;
    return entries;
  }

  const valid = (id: string) => idSchema.safeParse(id).success;
  const missing = (id: string) => err('not_found', `There is no conversation ${JSON.stringify(id.slice(0, 80))}.`);
  const refusedAfterClose = () => err('aborted', 'Familiar is shutting down: the conversation was not changed.');

  const store: ConversationStore = {
    async list() {
      return [...(await index()).values()]
        .map((entry) => entry.summary)
        .filter((summary) => !held.has(summary.id))
        .sort(byNewest);
    },
    async listTrash() {
      const summaries: ConversationSummary[] = [];
      for (const id of await idsIn(trashDir))
        summaries.push((await readEntry(trashFileOf(id), id, { trash: true })).summary);
      return summaries.sort((a, b) => (b.deletedAt ?? '').localeCompare(a.deletedAt ?? ''));
    },
    async search(query) {
      const terms = fold(query).split(/\s+/).filter(Boolean);
      const all = await store.list();
      return terms.length === 0
        ? all
        : all.filter((summary) => terms.every((term) => fold(summary.title).includes(term)));
    },
    async create(options = {}) {
      const all = await index();
      // Checked after the last await before the write, so close() cannot slip in between.
      if (closed) return refusedAfterClose();
      const id = newId('c');
      const at = new Date();
      const first = stamp({ type: 'conversation', id }, at);
      if (options.incognito === true) incognito.set(id, [first]);
      else if (options.held === true) held.set(id, [first]);
      else await writerOf(id).append([first], { sync: true });
      const summary: ConversationSummary = {
        id,
        title: DEFAULT_TITLE,
        createdAt: at.toISOString(),
        updatedAt: at.toISOString(),
        messageCount: 0,
        ...(options.incognito === true ? { incognito: true as const } : {}),
      };
      all.set(id, { summary, titleSource: undefined });
      emit({ kind: 'upsert', conversation: summary });
      return ok(summary);
    },
    async load(id) {
      const entry = valid(id) ? (await index()).get(id) : undefined;
      if (entry === undefined) return missing(id);
      const kept = incognito.get(id) ?? held.get(id);
      if (kept !== undefined) return ok({ summary: entry.summary, folded: foldTranscript(kept), skippedLines: 0 });
      await writers.get(id)?.flushed();
      const { folded, skippedLines } = await readEntry(fileOf(id), id);
      return ok({ summary: entry.summary, folded, skippedLines });
    },
    async append(id, records, options = {}) {
      const entry = (await index()).get(id);
      // Checked after the last await before the write, so close() cannot slip in between.
      if (closed) return refusedAfterClose();
      if (entry === undefined) throw new Error(`append to unknown conversation ${id}`);
      const at = new Date();
      const all = [...records];
      let changed = false;
      for (const record of records) {
        if (record.type === 'user') {
          if (entry.summary.messageCount === 0 && entry.titleSource !== 'user') {
            all.push({ type: 'title', title: deriveTitle(record.text), source: 'auto' });
          }
          entry.summary = { ...entry.summary, messageCount: entry.summary.messageCount + 1 };
          changed = true;
        }
        if (record.type === 'turn-end') changed = true;
      }
      for (const record of all) {
        if (record.type === 'title') {
          entry.summary = { ...entry.summary, title: record.title };
          entry.titleSource = record.source;
        }
      }
      entry.summary = { ...entry.summary, updatedAt: at.toISOString() };
      const kept = incognito.get(id) ?? held.get(id);
      if (kept !== undefined) {
        kept.push(...all.map((record) => stamp(record, at)));
        if (changed) emit({ kind: 'upsert', conversation: entry.summary });
        return ok(undefined);
      }
      const writer = writerOf(id);
      await writer.append(
        all.map((record) => stamp(record, at)),
        options,
      );
      // A synced append is a turn boundary: let the file go until the next turn instead of holding
      // one descriptor per conversation ever touched. A later append reopens it.
      if (options.sync === true) await writer.close();
      if (changed) emit({ kind: 'upsert', conversation: entry.summary });
      return ok(undefined);
    },
    async rename(id, title) {
      const entry = valid(id) ? (await index()).get(id) : undefined;
      if (entry === undefined) return missing(id);
      const appended = await store.append(id, [{ type: 'title', title, source: 'user' }], { sync: true });
      if (!appended.ok) return appended;
      emit({ kind: 'upsert', conversation: entry.summary });
      return ok(entry.summary);
    },
    async moveToTrash(id) {
      const all = await index();
      if (!valid(id) || !all.has(id)) return missing(id);
      if (closed) return refusedAfterClose();
      if (incognito.delete(id)) {
        // Nothing to keep in the trash: deleting an incognito conversation forgets it.
        all.delete(id);
        emit({ kind: 'removed', id });
        return ok(undefined);
      }
      const appended = await store.append(id, [{ type: 'deleted' }], { sync: true });
      if (!appended.ok) return appended;
      await writers.get(id)?.close();
      writers.delete(id);
      await ensureFolder(trashDir, 0o700);
      await moveDataFile(fileOf(id), trashFileOf(id));
      all.delete(id);
      emit({ kind: 'removed', id });
      return ok(undefined);
    },
    async restore(id) {
      const all = await index();
      if (!valid(id)) return missing(id);
      if (closed) return refusedAfterClose();
      try {
        await moveDataFile(trashFileOf(id), fileOf(id));
      } catch {
        return err('not_found', `There is no conversation ${id} in the trash.`);
      }
      const { folded } = await readEntry(fileOf(id), id);
      all.set(id, {
        summary: toSummary(folded, { id, createdAt: new Date().toISOString() }),
        titleSource: folded.titleSource,
      });
      const appended = await store.append(id, [{ type: 'restored' }], { sync: true });
      if (!appended.ok) return appended;
      const entry = all.get(id);
      if (entry === undefined) return missing(id);
      emit({ kind: 'upsert', conversation: entry.summary });
      return ok(entry.summary);
    },
    async keep(id) {
      const records = held.get(id);
      const entry = (await index()).get(id);
      if (records === undefined || entry === undefined) return missing(id);
      if (closed) return refusedAfterClose();
      held.delete(id);
      const writer = writerOf(id);
      await writer.append(records, { sync: true });
      await writer.close();
      emit({ kind: 'upsert', conversation: entry.summary });
      return ok(entry.summary);
    },
    discard(id) {
      if (!held.delete(id)) return;
      entries?.delete(id);
    },
    isIncognito: (id) => incognito.has(id),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      closed = true;
      // The incognito ids leave the index too: left there, they would look like ordinary conversations
      // (isIncognito false, so memory back on) whose next write creates <id>.jsonl.
      for (const id of [...incognito.keys(), ...held.keys()]) entries?.delete(id);
      incognito.clear();
      held.clear();
      await Promise.all([...writers.values()].map((writer) => writer.close()));
      writers.clear();
    },
  };
  return store;
}
