import { z } from 'zod';
import { imageMimeTypes } from './tool-image';
import type { ProviderSettings } from './settings';

/**
 * Pictures the user attaches to a chat message (pasted, dropped or picked). The page sends each as
 * its original bytes and, when the original is over `maxSentImageSide` pixels or `maxSentImageBytes`,
 * a scaled-down copy too: the model is sent the copy, the transcript keeps the original. Main stores
 * both by their SHA-256 in the Familiar home and the transcript names them by hash (imageRefSchema).
 */

/** Beyond either, a picture is scaled down before it is sent (the sizes every vision API takes). */
export const maxSentImageSide = 2048;
export const maxSentImageBytes = 5 * 1024 * 1024;
/** The largest original kept, and the most a message may carry (originals and copies together). */
export const maxOriginalImageBytes = 15 * 1024 * 1024;
export const maxMessageImageBytes = 20 * 1024 * 1024;
export const maxImagesPerMessage = 6;

const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4;

export const imageHashSchema = z.string().regex(/^[0-9a-f]{64}$/, 'not a SHA-256 in hex');
const imageMimeSchema = z.enum(imageMimeTypes);
const side = z.number().int().positive().max(100_000);

/** One stored picture: what the transcript and the page know of it (the bytes are fetched by hash). */
export const storedImageSchema = z.object({
  hash: imageHashSchema,
  mime: imageMimeSchema,
  bytes: z.number().int().nonnegative(),
  width: side,
  height: side,
});
export type StoredImage = z.infer<typeof storedImageSchema>;

/** A picture of a user message: the original, and `sent` when the model was sent a scaled copy. */
export const imageRefSchema = storedImageSchema.extend({
  name: z.string().max(200).optional(),
  sent: storedImageSchema.optional(),
});
export type ImageRef = z.infer<typeof imageRefSchema>;

const base64 = (maxBytes: number) =>
  z
    .string()
    .min(1)
    .max(base64Length(maxBytes))
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'not base64');

/** A picture as the page sends it with chat.send. */
export const imageUploadSchema = z
  .object({
    name: z.string().max(200).optional(),
    mime: imageMimeSchema,
    data: base64(maxOriginalImageBytes),
    /** The copy for the model when the original is too large (see maxSentImageSide/Bytes). */
    scaled: z
      .object({ mime: imageMimeSchema, data: base64(maxSentImageBytes) })
      .strict()
      .optional(),
  })
  .strict();
export type ImageUpload = z.infer<typeof imageUploadSchema>;

/** The bytes of one stored picture, for the page to show (conversations.image). */
export const imageBytesSchema = z.object({ mime: imageMimeSchema, data: z.string() });

const visionOpenAi =
  /^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-4-turbo|gpt-4-vision|gpt-5|o1(?!-mini|-preview)|o3(?!-mini)|o4)/;
const blindAnthropic = /^claude-(instant|2)/;

/**
 * Whether the configured model takes pictures. The user's switch (`vision`) wins when set; otherwise
 * known models by their names (OpenAI's and Anthropic's published lists: every Claude from 3 on, GPT-4o,
 * 4.1, 5, o1, o3, o4), and no for OpenAI-compatible servers and Ollama, whose models only the user,
 * or the server when it says so (Ollama's capabilities), can vouch for.
 */
export function modelTakesImages(provider: Pick<ProviderSettings, 'kind' | 'model' | 'vision'>): boolean {
  if (provider.vision !== undefined) return provider.vision;
  const model = provider.model.toLowerCase();
  switch (provider.kind) {
    case 'anthropic':
      return !blindAnthropic.test(model);
    case 'openai':
      return visionOpenAi.test(model);
    case 'ollama':
    case 'openai-compatible':
      return false;
  }
}
