import { z } from 'zod';
import { imageBytesSchema, imageHashSchema } from '../chat-images';
import {
  idSchema,
  memoryCaptureSchema,
  toolProgressSchema,
  toolResultViewSchema,
  turnErrorSchema,
  usageSchema,
  userMessageSchema,
} from './chat';
import { defineCall } from './define';

/**
 * Conversations: each one is an append-only transcript on disk (<home>/conversations/<id>.jsonl).
 * Deleting moves it to <home>/trash/conversations/, from where `conversations.restore` brings it back.
 */

export const conversationSummarySchema = z.object({
  id: idSchema,
  title: z.string(),
  createdAt: z.string(),
  /** Time of the last record written (a message, a turn's end, a rename). */
  updatedAt: z.string(),
  /** How many user messages it holds. */
  messageCount: z.number().int().nonnegative(),
  /** Set only in the trash listing. */
  deletedAt: z.string().optional(),
  /**
   * An incognito conversation: memory is off for it whatever the switch says, and its transcript
   * lives only in memory (never written to disk, gone when Familiar quits; deleting it is final).
   */
  incognito: z.literal(true).optional(),
});
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

/** How the user answered an approval the tool waited for (recorded by the tool registry). */
export const approvalViewSchema = z.object({
  decision: z.enum(['approved', 'rejected', 'edited']),
  reason: z.string().optional(),
});

export const assistantPartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({
    type: z.literal('tool'),
    toolCallId: z.string(),
    name: z.string(),
    args: z.unknown(),
    /** null while the tool has not answered (or never did: the turn was stopped or crashed). */
    result: toolResultViewSchema.nullable(),
    approval: approvalViewSchema.optional(),
    /** While it runs: how far it is (live only, never stored). */
    progress: toolProgressSchema.optional(),
  }),
]);
export type AssistantPart = z.infer<typeof assistantPartSchema>;

/**
 * One attempt at answering a user message. `status`: 'running' (the turn is live: follow chat.event),
 * 'complete', 'stopped' (by the user), 'error' (see `error`), 'interrupted' (Familiar quit or crashed
 * mid-turn). A retried attempt is followed by another assistant message whose `retryOf` is its id.
 */
export const assistantMessageSchema = z.object({
  role: z.literal('assistant'),
  id: idSchema,
  retryOf: idSchema.nullable(),
  createdAt: z.string(),
  status: z.enum(['running', 'complete', 'stopped', 'error', 'interrupted']),
  parts: z.array(assistantPartSchema),
  /** What the turn kept in memory before earlier messages left the context, when it had to. */
  memoryCapture: memoryCaptureSchema.optional(),
  error: turnErrorSchema.optional(),
  usage: usageSchema.optional(),
  finishReason: z.string().optional(),
});
export type AssistantMessage = z.infer<typeof assistantMessageSchema>;

export const chatMessageSchema = z.discriminatedUnion('role', [userMessageSchema, assistantMessageSchema]);
export type ChatMessage = z.infer<typeof chatMessageSchema>;

const byId = z.object({ id: idSchema }).strict();

export const conversationsCalls = {
  /** Newest first. `trash: true` lists deleted conversations instead (with `deletedAt`). */
  'conversations.list': defineCall(
    z.object({ trash: z.boolean().default(false) }).strict(),
    z.object({ conversations: z.array(conversationSummarySchema) }),
  ),
  /**
   * An empty conversation titled "New conversation"; the first message names it. `incognito: true`
   * makes an incognito one (see conversationSummarySchema.incognito): chosen at creation, never changed.
   */
  'conversations.create': defineCall(
    z.object({ incognito: z.boolean().default(false) }).strict(),
    conversationSummarySchema,
  ),
  /**
   * The whole conversation for display. `runningTurnId` is set when a turn is live: its events keep
   * arriving on chat.event. `skippedLines` counts damaged transcript lines left out (a crash mid-write).
   */
  'conversations.open': defineCall(
    byId,
    z.object({
      conversation: conversationSummarySchema,
      messages: z.array(chatMessageSchema),
      runningTurnId: idSchema.nullable(),
      skippedLines: z.number().int().nonnegative(),
    }),
  ),
  'conversations.rename': defineCall(
    z.object({ id: idSchema, title: z.string().trim().min(1).max(200) }).strict(),
    conversationSummarySchema,
  ),
  /** Moves the conversation to the trash (stopping its turn first). */
  'conversations.delete': defineCall(byId, z.object({ id: idSchema })),
  'conversations.restore': defineCall(byId, conversationSummarySchema),
  /**
   * The bytes of a picture attached to a message of the conversation, by hash (UserMessage.images),
   * for the page to show. Errors: not_found (no such conversation or picture).
   */
  'conversations.image': defineCall(z.object({ id: idSchema, hash: imageHashSchema }).strict(), imageBytesSchema),
  /** Case- and accent-insensitive search in titles; newest first. */
  'conversations.search': defineCall(
    z.object({ query: z.string().max(200) }).strict(),
    z.object({ conversations: z.array(conversationSummarySchema) }),
  ),
};

export const conversationsEvents = {
  /**
   * The conversation list changed: `upsert` for a new, renamed, restored or newly active conversation
   * (its summary), `removed` when it went to the trash.
   */
  'conversations.changed': z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('upsert'), conversation: conversationSummarySchema }),
    z.object({ kind: z.literal('removed'), id: idSchema }),
  ]),
};
