import { create } from 'zustand';
import type { ImageUpload } from '../../../shared/chat-images';
import { maxImagesPerMessage, maxMessageImageBytes } from '../../../shared/chat-images';
import { draftListActions } from './draft-lists';
import { prepareImage } from './prepare-image';
import type { PrepareProblem, PreparedImage } from './prepare-image';

export type AttachProblem = PrepareProblem | 'too-many';

export interface AttachmentsState {
  /** Draft key (a conversation id, or the new-conversation draft) → the pictures waiting to be sent. */
  readonly pending: Readonly<Record<string, readonly PreparedImage[]>>;
  /** Why the last files could not all be attached, per draft key (cleared by the next attach). */
  readonly problems: Readonly<Record<string, AttachProblem | undefined>>;
}

/**
 * Pictures attached in the composer, per draft, in memory only: a picture is megabytes, and an
 * incognito conversation's must never reach localStorage anyway.
 */
export const useAttachmentsStore = create<AttachmentsState>(() => ({ pending: {}, problems: {} }));

let nextId = 0;

const sizeOf = (image: PreparedImage) =>
  image.bytes + (image.scaled === undefined ? 0 : (image.scaled.data.length * 3) / 4);

const setFor = (key: string, images: readonly PreparedImage[], problem?: AttachProblem) =>
  useAttachmentsStore.setState((state) => ({
    pending: { ...state.pending, [key]: images },
    problems: { ...state.problems, [key]: problem },
  }));

const pendingImages = (key: string) => useAttachmentsStore.getState().pending[key] ?? [];

export const attachmentsActions = {
  /** Reads and scales the files that are pictures; says why when some could not be attached. */
  async add(key: string, files: readonly File[]): Promise<void> {
    let problem: AttachProblem | undefined;
    const added: PreparedImage[] = [];
    for (const file of files) {
      nextId += 1;
      const prepared = await prepareImage(file, `image-${nextId}`);
      if (typeof prepared === 'string') problem = prepared;
      else added.push(prepared);
    }
    const current = pendingImages(key);
    const kept: PreparedImage[] = [...current];
    for (const image of added) {
      const total = [...kept, image].reduce((sum, each) => sum + sizeOf(each), 0);
      if (kept.length >= maxImagesPerMessage) problem = 'too-many';
      else if (total > maxMessageImageBytes) problem = 'too-large';
      else kept.push(image);
    }
    setFor(key, kept, problem);
  },
  /** Taken for sending, the composer is empty again (the pictures come back if the send is refused). */
  ...draftListActions(pendingImages, (key, images) => setFor(key, images)),
};

/** What chat.send carries of a prepared picture. */
export const toUpload = (image: PreparedImage): ImageUpload => ({
  name: image.name,
  mime: image.mime,
  data: image.data,
  ...(image.scaled === undefined ? {} : { scaled: { mime: image.scaled.mime, data: image.scaled.data } }),
});
