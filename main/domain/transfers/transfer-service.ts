import { randomUUID } from 'node:crypto';
import type { DownloadOffer, UploadResult } from '../../../shared/ipc/transfers';
import { MAX_FETCHED_DOWNLOAD_BYTES } from '../../../shared/ipc/transfers';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { Handlers } from '../../platform/ipc/dispatcher';
import type { EventHub } from '../../platform/ipc/event-hub';
import type { WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import { formatBytes } from '../../../shared/format-bytes';
import { copyOfferedFile, readOfferedFile, reopenOfferedFile } from './offered-file';
import type { OfferedFacts } from './offered-file';
import { saveUpload, uploadNote } from './upload-file';
import type { UploadLimits } from './upload-file';

/** An offer nobody answers is withdrawn after this (the approval broker's 10 minutes). */
export const OFFER_TIMEOUT_MS = 10 * 60 * 1000;

export interface OfferedFile {
  readonly conversationId: string;
  /** Workspace-relative display path. */
  readonly path: string;
  readonly name: string;
  readonly bytes: number;
  /** The real entry the sandbox resolved (ResolvedPath.key). */
  readonly key: string;
  /** The file's inode at offer time: fetch and save refuse a different file found there later. */
  readonly ino: number;
}

export interface OfferAnswer {
  /** False when no page can show the offer (MCP mode): nothing was put in front of a person. */
  readonly offered: boolean;
  readonly saved: boolean;
  /** Where the desktop saved it. */
  readonly location?: string;
  /** Why it was not saved, for the model. */
  readonly reason?: string;
}

export type TransferHandlers = Pick<
  Handlers,
  'transfers.upload' | 'transfers.pending' | 'transfers.fetch' | 'transfers.saveAs' | 'transfers.answer'
>;

export interface TransferService {
  uploadLimits(): UploadLimits;
  /** Puts a workspace file in front of the user with a save action; resolves when they save or dismiss it. */
  offer(file: OfferedFile, signal: AbortSignal): Promise<OfferAnswer>;
  readonly handlers: TransferHandlers;
}

export interface TransferServiceOptions {
  readonly events: Pick<EventHub, 'emit'>;
  /** The sandbox of the open workspace, as the assistant's tools see it right now. */
  readonly sandbox: () => Promise<WorkspaceSandbox>;
  readonly uploadLimits: () => UploadLimits;
  /** Desktop: the native Save dialog (null when cancelled). Absent in browser mode. */
  readonly chooseSavePath?: ((suggestedName: string) => Promise<string | null>) | undefined;
  /** False when no page is attached (MCP mode): offers are answered at once as not offered. */
  readonly interactive: boolean;
  readonly offerTimeoutMs?: number;
}

interface Waiting {
  readonly offer: DownloadOffer;
  readonly facts: OfferedFacts;
  readonly resolve: (answer: OfferAnswer) => void;
}

const fromBase64 = (data: string) => Buffer.from(data, 'base64');

export function createTransferService(options: TransferServiceOptions): TransferService {
  const waiting = new Map<string, Waiting>();
  const timeoutMs = options.offerTimeoutMs ?? OFFER_TIMEOUT_MS;

  const settle = (id: string, answer: OfferAnswer) => {
    const entry = waiting.get(id);
    if (entry === undefined) return false;
    waiting.delete(id);
    options.events.emit('transfers.resolved', { id, saved: answer.saved });
    entry.resolve(answer);
    return true;
  };

  const offer: TransferService['offer'] = (file, signal) => {
    if (!options.interactive) {
      return Promise.resolve({
        offered: false,
        saved: false,
        reason: 'No user interface is attached to this session (MCP mode), so nobody can save the file.',
      });
    }
    if (signal.aborted) return Promise.resolve({ offered: false, saved: false, reason: 'The turn was stopped.' });
    return new Promise((resolve) => {
      const id = randomUUID();
      const timer = setTimeout(
        () => settle(id, { offered: true, saved: false, reason: 'The user did not save it within 10 minutes.' }),
        timeoutMs,
      );
      const onAbort = () => settle(id, { offered: true, saved: false, reason: 'The turn was stopped.' });
      signal.addEventListener('abort', onAbort, { once: true });
      const offered: DownloadOffer = {
        id,
        conversationId: file.conversationId,
        path: file.path,
        name: file.name,
        bytes: file.bytes,
        createdAt: new Date().toISOString(),
      };
      waiting.set(id, {
        offer: offered,
        facts: { path: file.path, key: file.key, ino: file.ino, bytes: file.bytes },
        resolve: (answer) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        },
      });
      options.events.emit('transfers.offered', offered);
    });
  };

  const find = (id: string): Result<Waiting> => {
    const entry = waiting.get(id);
    return entry === undefined
      ? err('not_found', 'This download is no longer offered (saved, dismissed or expired).')
      : ok(entry);
  };

  const handlers: TransferHandlers = {
    'transfers.upload': async ({ name, data, conversationId }) => {
      const saved = await saveUpload(await options.sandbox(), name, fromBase64(data), options.uploadLimits());
      if (!saved.ok) return saved;
      const result: UploadResult = { ...saved.value, note: uploadNote(saved.value) };
      options.events.emit('transfers.uploaded', {
        ...result,
        ...(conversationId === undefined ? {} : { conversationId }),
      });
      return ok(result);
    },
    'transfers.pending': () => ok({ offers: [...waiting.values()].map((entry) => entry.offer) }),
    'transfers.fetch': async ({ id }) => {
      const entry = find(id);
      if (!entry.ok) return entry;
      if (entry.value.offer.bytes > MAX_FETCHED_DOWNLOAD_BYTES) {
        return err(
          'file_too_large',
          `${formatBytes(entry.value.offer.bytes)} is more than a browser download carries here (${formatBytes(MAX_FETCHED_DOWNLOAD_BYTES)}).`,
        );
      }
      // Checked again now, not trusted from offer time: the file may have grown, or become a symlink.
      const opened = await reopenOfferedFile(await options.sandbox(), entry.value.facts, MAX_FETCHED_DOWNLOAD_BYTES);
      if (!opened.ok) return opened;
      const bytes = await readOfferedFile(opened.value, entry.value.facts);
      if (!bytes.ok) return bytes;
      return ok({ name: entry.value.offer.name, data: bytes.value.toString('base64'), bytes: bytes.value.length });
    },
    'transfers.saveAs': async ({ id }) => {
      const entry = find(id);
      if (!entry.ok) return entry;
      if (options.chooseSavePath === undefined) {
        return err('not_found', 'There is no native Save dialog in browser mode; the page downloads the file instead.');
      }
      const target = await options.chooseSavePath(entry.value.offer.name);
      if (target === null) return ok({ saved: false });
      // After the dialog, which may have stayed open for minutes: what is copied is checked now.
      const opened = await reopenOfferedFile(await options.sandbox(), entry.value.facts);
      if (!opened.ok) return opened;
      const copied = await copyOfferedFile(opened.value, target);
      if (!copied.ok) return copied;
      settle(id, { offered: true, saved: true, location: target });
      return ok({ saved: true, path: target });
    },
    'transfers.answer': ({ id, saved }) => {
      const entry = find(id);
      if (!entry.ok) return entry;
      settle(
        id,
        saved ? { offered: true, saved: true } : { offered: true, saved: false, reason: 'The user dismissed it.' },
      );
      return ok({ id });
    },
  };

  return { uploadLimits: options.uploadLimits, offer, handlers };
}
