/**
 * A tool result that is a picture (read_file on a PNG): an object with `kind: 'image'`, the
 * image's `mime` type and its bytes as base64 in `data`, beside its facts (path, size,
 * dimensions). Written once here because every reader of results must treat the bytes as a
 * picture, never as text: the chat model gets an image part (main/agent/model-output.ts), an MCP
 * client image content (main/front-doors/mcp/mcp-server.ts), the page and the result cap the facts
 * alone (a megabyte of base64 is not text anybody reads).
 */

/** The formats every vision model Familiar talks to takes (Anthropic, OpenAI, Gemini, Ollama). */
export const imageMimeTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageMime = (typeof imageMimeTypes)[number];

export interface ToolImage {
  readonly mime: ImageMime;
  /** base64, no data: prefix. */
  readonly data: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isImageMime = (mime: unknown): mime is ImageMime =>
  typeof mime === 'string' && (imageMimeTypes as readonly string[]).includes(mime);

export interface SplitImage {
  readonly image: ToolImage;
  /** The result without its bytes: what is shown, measured or serialized as text. */
  readonly facts: Record<string, unknown>;
}

/** An image result split into its picture and its facts; undefined for any other value. */
export function splitToolImage(value: unknown): SplitImage | undefined {
  if (!isRecord(value) || value['kind'] !== 'image') return undefined;
  const { data, ...facts } = value;
  const { mime } = value;
  return isImageMime(mime) && typeof data === 'string' ? { image: { mime, data }, facts } : undefined;
}
