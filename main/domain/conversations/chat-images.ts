import { imageSize } from 'image-size';
import { maxMessageImageBytes, maxSentImageBytes, maxSentImageSide } from '../../../shared/chat-images';
import type { ImageRef, ImageUpload, StoredImage } from '../../../shared/chat-images';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { ImageMime } from '../../../shared/tool-image';
import { openContentFiles, sha256Of } from '../../platform/storage/content-files';

/** The bytes of a stored picture, ready for the model or the page. */
export interface ImageBytes {
  readonly mime: ImageMime;
  readonly bytes: Buffer;
}

/**
 * The pictures of chat messages. Ordinary conversations keep them in the Familiar home, named by
 * hash, for good: the transcript names them, and a transcript in the trash, restored or undone must
 * find them again. An incognito conversation keeps them in memory only, gone when it is deleted or
 * Familiar quits.
 */
export interface ChatImageStore {
  /** Checks each picture is what it claims and within the limits, then keeps it. */
  keep(conversationId: string, uploads: readonly ImageUpload[], incognito: boolean): Promise<Result<ImageRef[]>>;
  /** A picture of the conversation by hash (its incognito pictures, or the home's). */
  read(conversationId: string, hash: string): Promise<ImageBytes | undefined>;
  /** Forgets an incognito conversation's pictures. */
  forget(conversationId: string): void;
  close(): void;
}

const mimeOfType: Record<string, ImageMime> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** The picture's real format and size from its header, or undefined when it is none we take. */
function inspect(bytes: Buffer): { mime: ImageMime; width: number; height: number } | undefined {
  try {
    const size = imageSize(bytes);
    const mime = size.type === undefined ? undefined : mimeOfType[size.type];
    return mime === undefined ? undefined : { mime, width: size.width, height: size.height };
  } catch {
    return undefined;
  }
}

interface Checked {
  readonly bytes: Buffer;
  readonly facts: Omit<StoredImage, 'hash'>;
}

function check(label: string, mime: ImageMime, data: string): Result<Checked> {
  const bytes = Buffer.from(data, 'base64');
  const facts = inspect(bytes);
  if (facts === undefined || facts.mime !== mime) {
    return err('invalid_payload', `${label} is not the ${mime} picture it says it is (or it is damaged).`);
  }
  return ok({ bytes, facts: { ...facts, bytes: bytes.length } });
}

const fits = (facts: Omit<StoredImage, 'hash'>) =>
  facts.bytes <= maxSentImageBytes && Math.max(facts.width, facts.height) <= maxSentImageSide;

export function openChatImageStore(dir: string): ChatImageStore {
  const files = openContentFiles(dir);
  const incognito = new Map<string, Map<string, ImageBytes>>();

  async function put(conversationId: string, checked: Checked, inMemory: boolean): Promise<StoredImage> {
    if (!inMemory) return { hash: await files.put(checked.bytes), ...checked.facts };
    const hash = sha256Of(checked.bytes);
    let kept = incognito.get(conversationId);
    if (kept === undefined) incognito.set(conversationId, (kept = new Map<string, ImageBytes>()));
    kept.set(hash, { mime: checked.facts.mime, bytes: checked.bytes });
    return { hash, ...checked.facts };
  }

  return {
    async keep(conversationId, uploads, inMemory) {
      const checked: { name?: string; original: Checked; sent?: Checked }[] = [];
      let total = 0;
      for (const [index, upload] of uploads.entries()) {
        const label = `Picture ${index + 1}${upload.name === undefined ? '' : ` (${upload.name})`}`;
        const original = check(label, upload.mime, upload.data);
        if (!original.ok) return original;
        const scaled =
          upload.scaled === undefined ? undefined : check(`${label}'s copy`, upload.scaled.mime, upload.scaled.data);
        if (scaled !== undefined && !scaled.ok) return scaled;
        const sent = scaled?.value ?? original.value;
        // The page scales; main only checks, so no picture over the limits ever reaches a model.
        if (!fits(sent.facts)) {
          return err(
            'invalid_payload',
            `${label} is ${sent.facts.width}×${sent.facts.height}, ${sent.facts.bytes} bytes: a picture is sent at most ${maxSentImageSide} pixels on a side and ${maxSentImageBytes} bytes.`,
          );
        }
        total += original.value.bytes.length + (scaled?.value.bytes.length ?? 0);
        checked.push({
          ...(upload.name === undefined ? {} : { name: upload.name }),
          original: original.value,
          ...(scaled === undefined ? {} : { sent: scaled.value }),
        });
      }
      if (total > maxMessageImageBytes) {
        return err(
          'invalid_payload',
          `The pictures come to ${total} bytes; a message carries at most ${maxMessageImageBytes}.`,
        );
      }
      const refs: ImageRef[] = [];
      for (const item of checked) {
        const original = await put(conversationId, item.original, inMemory);
        const sent = item.sent === undefined ? undefined : await put(conversationId, item.sent, inMemory);
        refs.push({
          ...original,
          ...(item.name === undefined ? {} : { name: item.name }),
          ...(sent === undefined ? {} : { sent }),
        });
      }
      return ok(refs);
    },
    async read(conversationId, hash) {
      const kept = incognito.get(conversationId)?.get(hash);
      if (kept !== undefined) return kept;
      const bytes = await files.get(hash);
      const facts = bytes === undefined ? undefined : inspect(bytes);
      return bytes === undefined || facts === undefined ? undefined : { mime: facts.mime, bytes };
    },
    forget: (conversationId) => void incognito.delete(conversationId),
    close: () => incognito.clear(),
  };
}
