import { z } from 'zod';
import { imageRefSchema } from '../../../shared/chat-images';
import { mcpAttachmentSchema } from '../../../shared/mcp-attachments';
import { familiarErrorSchema } from '../../../shared/error-schemas';
import { idSchema, memoryCaptureSchema, turnErrorSchema, usageSchema } from '../../../shared/ipc/chat';

/**
 * One line of a conversation transcript (<home>/conversations/<id>.jsonl). The file is append-only:
 * a rename appends a `title`, a retry appends a new `turn-start`; nothing is rewritten. Every line is
 * parsed with these schemas when read, so a hand-edited or damaged line is skipped, never trusted.
 */

const base = { v: z.literal(1), at: z.string() };

/** A tool's Result exactly as the executor answered it (value capped before writing). */
export const storedToolResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: familiarErrorSchema }),
]);
export type StoredToolResult = z.infer<typeof storedToolResultSchema>;

export const transcriptRecordSchema = z.discriminatedUnion('type', [
  /** Always the first line. */
  z.object({ ...base, type: z.literal('conversation'), id: idSchema }),
  /** 'auto' titles come from the first user message; 'user' titles from a rename and are kept. */
  z.object({ ...base, type: z.literal('title'), title: z.string(), source: z.enum(['auto', 'user']) }),
  /** `images`: the pictures attached, named by hash (their bytes are in <home>/chat-images, chat-images.ts). */
  z.object({
    ...base,
    type: z.literal('user'),
    messageId: idSchema,
    text: z.string(),
    images: z.array(imageRefSchema).optional(),
    /** Resources and prompts of the user's MCP servers, as they were read when it was sent. */
    attachments: z.array(mcpAttachmentSchema).optional(),
  }),
  /** A turn answers one user message; a retry answers the same message again (`retryOf` = the failed turn). */
  z.object({
    ...base,
    type: z.literal('turn-start'),
    turnId: idSchema,
    userMessageId: idSchema,
    retryOf: idSchema.nullable(),
  }),
  /** A block of assistant text, written when the block ends (or when the turn stops mid-block). */
  z.object({
    ...base,
    type: z.literal('text'),
    turnId: idSchema,
    step: z.number().int().nonnegative(),
    text: z.string(),
  }),
  z.object({
    ...base,
    type: z.literal('tool-call'),
    turnId: idSchema,
    step: z.number().int().nonnegative(),
    toolCallId: z.string().min(1),
    name: z.string(),
    args: z.unknown(),
  }),
  z.object({
    ...base,
    type: z.literal('tool-result'),
    turnId: idSchema,
    toolCallId: z.string().min(1),
    name: z.string(),
    result: storedToolResultSchema,
  }),
  /**
   * Before the turn answered, earlier messages were about to leave the model's context, and a silent
   * call kept what was worth keeping (memory-capture.ts). Everything up to and including the exchange
   * of `throughMessageId` has been offered to it, so it is not offered again (unless `error` is set).
   */
  z.object({
    ...base,
    type: z.literal('memory-capture'),
    turnId: idSchema,
    throughMessageId: idSchema,
    ...memoryCaptureSchema.shape,
  }),
  /** Written by the tool-call pipeline when the user answers an approval (see ConversationStore.append). */
  z.object({
    ...base,
    type: z.literal('approval'),
    toolCallId: z.string().min(1),
    decision: z.enum(['approved', 'rejected', 'edited']),
    reason: z.string().optional(),
  }),
  /** The turn boundary: the file is fsynced right after this line. */
  z.object({
    ...base,
    type: z.literal('turn-end'),
    turnId: idSchema,
    status: z.enum(['complete', 'stopped', 'error']),
    finishReason: z.string().optional(),
    usage: usageSchema.optional(),
    error: turnErrorSchema.optional(),
    reason: z.string().optional(),
  }),
  z.object({ ...base, type: z.literal('deleted') }),
  z.object({ ...base, type: z.literal('restored') }),
]);
export type TranscriptRecord = z.infer<typeof transcriptRecordSchema>;

/** A record before the common fields are stamped on. */
export type NewRecord = TranscriptRecord extends infer R
  ? R extends TranscriptRecord
    ? Omit<R, 'v' | 'at'>
    : never
  : never;

export const stamp = (record: NewRecord, at = new Date()): TranscriptRecord => ({
  v: 1,
  at: at.toISOString(),
  ...record,
});
