import { imageMimeTypes } from '../../../shared/tool-image';
import type { ImageMime } from '../../../shared/tool-image';
import { maxOriginalImageBytes, maxSentImageBytes, maxSentImageSide } from '../../../shared/chat-images';

/** A picture ready to go with a message: the original's bytes, and a scaled copy when it needs one. */
export interface PreparedImage {
  readonly id: string;
  readonly name: string;
  readonly mime: ImageMime;
  /** base64 of the original (kept in the transcript). */
  readonly data: string;
  readonly bytes: number;
  readonly width: number;
  readonly height: number;
  /** What the model is sent instead, when the original is over 2048 px or 5 MB. */
  readonly scaled?: {
    readonly mime: ImageMime;
    readonly data: string;
    readonly width: number;
    readonly height: number;
  };
}

/** Why a file could not be attached, for the composer to say. */
export type PrepareProblem = 'not-an-image' | 'too-large' | 'unreadable';

export const isImageMime = (type: string): type is ImageMime => (imageMimeTypes as readonly string[]).includes(type);

const base64Of = async (blob: Blob): Promise<string> => {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  // In slices: String.fromCharCode with a whole megabyte of arguments overflows the stack.
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(binary);
};

/** The size the copy is drawn at: the longest side at most maxSentImageSide, the shape kept. */
export function fittedSize(
  width: number,
  height: number,
  maxSide = maxSentImageSide,
): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

async function drawn(bitmap: ImageBitmap, width: number, height: number, type: ImageMime, quality?: number) {
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (context === null) throw new Error('no 2d canvas');
  context.drawImage(bitmap, 0, 0, width, height);
  return canvas.convertToBlob({ type, ...(quality === undefined ? {} : { quality }) });
}

/**
 * Reads a picked, pasted or dropped file. Over 2048 px or 5 MB, a copy is drawn smaller on a canvas
 * (PNG stays PNG when that fits, else JPEG; shrinking again until it is under 5 MB): the model is
 * sent the copy, the transcript keeps the original.
 */
export async function prepareImage(file: File, id: string): Promise<PreparedImage | PrepareProblem> {
  if (!isImageMime(file.type)) return 'not-an-image';
  if (file.size > maxOriginalImageBytes) return 'too-large';
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return 'unreadable';
  }
  try {
    const { width, height } = bitmap;
    const original = {
      id,
      name: file.name === '' ? 'image' : file.name.slice(0, 200),
      mime: file.type,
      data: await base64Of(file),
      bytes: file.size,
      width,
      height,
    };
    if (file.size <= maxSentImageBytes && Math.max(width, height) <= maxSentImageSide) return original;
    let size = fittedSize(width, height);
    let blob = await drawn(
      bitmap,
      size.width,
      size.height,
      file.type === 'image/png' ? 'image/png' : 'image/jpeg',
      0.9,
    );
    for (let tries = 0; blob.size > maxSentImageBytes && tries < 6; tries += 1) {
      size = fittedSize(size.width, size.height, Math.floor(Math.max(size.width, size.height) * 0.75));
      blob = await drawn(bitmap, size.width, size.height, 'image/jpeg', 0.85);
    }
    if (blob.size > maxSentImageBytes) return 'too-large';
    const mime = blob.type === 'image/png' ? 'image/png' : 'image/jpeg';
    return { ...original, scaled: { mime, data: await base64Of(blob), ...size } };
  } catch {
    return 'unreadable';
  } finally {
    bitmap.close();
  }
}
