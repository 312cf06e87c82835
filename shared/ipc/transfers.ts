import { z } from 'zod';
import { askedInConversation } from './asked-in-conversation';
import { defineCall } from './define';

/**
 * Files crossing between the user's computer and the workspace: uploads the user drops or picks
 * (copied into the workspace's uploads/ folder) and downloads the assistant offers (file_download).
 * In browser mode the bytes travel base64-encoded over the contract's WebSocket, so both directions
 * are capped below its 32 MB frame.
 */

/** The most an upload setting may allow: base64 (4/3) plus JSON must fit one 32 MB WebSocket frame. */
export const MAX_UPLOAD_LIMIT_BYTES = 20 * 1024 * 1024;
/** A download the page fetches as bytes (browser mode); the desktop saves any size natively. */
export const MAX_FETCHED_DOWNLOAD_BYTES = 20 * 1024 * 1024;
/** Default upload cap; the user may raise it up to MAX_UPLOAD_LIMIT_BYTES in settings. */
export const DEFAULT_MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

const base64Schema = (maxBytes: number) =>
  z
    .string()
    .max(Math.ceil(maxBytes / 3) * 4 + 4)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64');

export const uploadResultSchema = z.object({
  /** The name it was saved under (a unique one when the original was taken). */
  name: z.string(),
  /** Workspace-relative, e.g. "uploads/report (1).txt". */
  path: z.string(),
  bytes: z.number().int().nonnegative(),
  /** One line for the next message, so the assistant knows what arrived and where. */
  note: z.string(),
});
export type UploadResult = z.infer<typeof uploadResultSchema>;

export const downloadOfferSchema = z.object({
  ...askedInConversation,
  /** Workspace-relative path of the offered file. */
  path: z.string(),
  name: z.string(),
  bytes: z.number().int().nonnegative(),
  createdAt: z.iso.datetime(),
});
export type DownloadOffer = z.infer<typeof downloadOfferSchema>;

export const transferCalls = {
  /** Copies one file the user dropped or picked into uploads/ after validation (name, size, type). */
  'transfers.upload': defineCall(
    z
      .object({
        name: z.string().min(1).max(255),
        data: base64Schema(MAX_UPLOAD_LIMIT_BYTES),
        conversationId: z.string().max(200).optional(),
      })
      .strict(),
    uploadResultSchema,
  ),
  /** Downloads the assistant offered that still wait for the user (after a reload or reconnect). */
  'transfers.pending': defineCall(z.object({}).strict(), z.object({ offers: z.array(downloadOfferSchema) })),
  /** The offered file's bytes, for a browser download (browser mode). */
  'transfers.fetch': defineCall(
    z.object({ id: z.string().max(200) }).strict(),
    z.object({ name: z.string(), data: base64Schema(MAX_FETCHED_DOWNLOAD_BYTES), bytes: z.number().int() }),
  ),
  /** Desktop: the native Save dialog, then the copy; answers the offer itself. */
  'transfers.saveAs': defineCall(
    z.object({ id: z.string().max(200) }).strict(),
    z.object({ saved: z.boolean(), path: z.string().optional() }),
  ),
  /** The user saved (browser download started) or dismissed an offer. */
  'transfers.answer': defineCall(
    z.object({ id: z.string().max(200), saved: z.boolean() }).strict(),
    z.object({ id: z.string() }),
  ),
};

export const transferEvents = {
  'transfers.offered': downloadOfferSchema,
  'transfers.resolved': z.object({ id: z.string(), saved: z.boolean() }),
  'transfers.uploaded': uploadResultSchema.extend({ conversationId: z.string().optional() }),
};
