import { imageSize } from 'image-size';
import { z } from 'zod';
import { messageOf } from '../../../shared/errors';
import { formatBytes } from '../../../shared/format-bytes';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { imageMimeTypes } from '../../../shared/tool-image';
import type { ImageMime } from '../../../shared/tool-image';
import type { ToolLimits } from '../kit/tool-limits';

/** read_file's answer for a picture: its facts, and its bytes for the model (shared/tool-image.ts). */
export const imageReadOutput = z.object({
  kind: z.literal('image'),
  path: z.string(),
  mime: z.enum(imageMimeTypes),
  /** The file's size. */
  bytes: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  data: z
    .string()
    .exactOptional()
    .describe(
      'The image, base64. A chat model is shown it as an image; an MCP client gets it as image content, not here.',
    ),
});
export type ImageReadOutput = z.output<typeof imageReadOutput>;

/** What image-size calls each format we take: a mismatch with the magic bytes is a damaged file. */
const sizeTypeOf: Record<ImageMime, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

const formatName = (mime: ImageMime) => mime.slice('image/'.length).toUpperCase();

/** The size limit, checked before the bytes are read. */
export function imageTooLarge(display: string, size: number, limits: ToolLimits): Result<never> | undefined {
  if (size <= limits.maxImageBytes) return undefined;
  return err(
    'file_too_large',
    `'${display}' is an image of ${formatBytes(size)}; read_file shows images up to ${formatBytes(limits.maxImageBytes)}. ` +
      'Ask the user for a smaller copy (scaled down, or saved as JPEG), or use get_file_info for its facts.',
    { size, limit: limits.maxImageBytes },
  );
}

/**
 * A workspace picture as read_file answers it: the dimensions from its header, the bytes as base64
 * for the model (agent/model-output.ts shows it, or says in words why this model is not shown it).
 */
export function readImage(
  display: string,
  mime: ImageMime,
  bytes: Buffer,
  limits: ToolLimits,
): Result<ImageReadOutput> {
  let width: number;
  let height: number;
  try {
    const size = imageSize(bytes);
    if (size.type !== sizeTypeOf[mime]) throw new Error(`it reads as ${size.type ?? 'nothing known'}`);
    ({ width, height } = size);
  } catch (error) {
    return err(
      'image_unreadable',
      `'${display}' starts like a ${formatName(mime)} image but its header cannot be read (${messageOf(error)}): the file may be truncated or damaged.`,
    );
  }
  if (Math.max(width, height) > limits.maxImageSide) {
    return err(
      'file_too_large',
      `'${display}' is a ${width}×${height} image; read_file shows images up to ${limits.maxImageSide} pixels on a side. Ask the user for a scaled-down copy.`,
      { width, height, limit: limits.maxImageSide },
    );
  }
  return ok({
    kind: 'image',
    path: display,
    mime,
    bytes: bytes.length,
    width,
    height,
    data: bytes.toString('base64'),
  });
}
