import { z } from 'zod';
import { imageRefSchema, imageUploadSchema, maxImagesPerMessage } from '../chat-images';
import { errorCodeSchema } from '../error-schemas';
import { maxMcpAttachments, mcpAttachmentRequestSchema, mcpAttachmentSchema } from '../mcp-attachments';
import { defineCall } from './define';

/**
 * Chat: the user's messages go in through calls, the assistant's turn comes back as ONE event stream,
 * `chat.event`, whose payload is a discriminated union on `type`. Every payload names its
 * `conversationId` and `turnId`, so a page can follow several conversations at once.
 *
 * A turn's events always arrive in this order:
 *   turn-started → memory-captured? → (text-delta | tool-call | tool-progress | tool-result)* → exactly one of turn-finished | turn-stopped | turn-error
 */

/** Ids Familiar generates (conversations, turns, messages): lowercase, digits and dashes, so they are safe file names. */
export const idSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{7,79}$/, 'not a Familiar id');

/** Token counts the provider reported; a provider may omit any of them. */
export const usageSchema = z.object({
  inputTokens: z.number().int().nonnegative().optional(),
  outputTokens: z.number().int().nonnegative().optional(),
  totalTokens: z.number().int().nonnegative().optional(),
});
export type Usage = z.infer<typeof usageSchema>;

/**
 * Why a turn failed, written for a person. `retryable` says whether `chat.retry` as-is may succeed
 * (rate limit, network, server error) or the user must change something first (key, model, a shorter
 * message). `retryAfterSeconds` is set when the provider said how long to wait (429 Retry-After).
 * Codes: provider_not_configured, auth_failed, provider_rate_limited, network_error, model_not_found,
 * context_too_long, provider_error, internal_error.
 */
export const turnErrorSchema = z.object({
  code: errorCodeSchema,
  message: z.string(),
  retryable: z.boolean(),
  retryAfterSeconds: z.number().nonnegative().optional(),
  /** The HTTP status the provider answered, when there was one. */
  status: z.number().int().optional(),
});
export type TurnError = z.infer<typeof turnErrorSchema>;

/**
 * A tool's outcome as the page shows it. `value` is the tool's result (capped at ~8 KB of JSON; when
 * it was larger `truncated` is true); `code` is the stable error code when `ok` is false.
 */
export const toolResultViewSchema = z.object({
  ok: z.boolean(),
  code: errorCodeSchema.optional(),
  /** One line for the collapsed view: "42 lines", "file_not_found: notes.md does not exist". */
  summary: z.string(),
  value: z.unknown().optional(),
  truncated: z.boolean().optional(),
});
export type ToolResultView = z.infer<typeof toolResultViewSchema>;

/** How much of the conversation the model saw this turn (for a context meter). */
export const contextReportSchema = z.object({
  estimatedTokens: z.number().int().nonnegative(),
  /** Tokens available for the conversation: the window minus the system prompt, tools and reply reserve. */
  budgetTokens: z.number().int().nonnegative(),
  /** Old tool outputs replaced by an elision marker to fit. */
  elidedToolOutputs: z.number().int().nonnegative(),
  /** Older messages left out (the model sees a marker saying so). */
  droppedMessages: z.number().int().nonnegative(),
});
export type ContextReport = z.infer<typeof contextReportSchema>;

/**
 * What a silent turn kept before earlier messages left the model's context window: the entries it
 * appended to today's daily note (none when nothing was worth keeping). `error` says why the capture
 * failed; it is then tried again before the next turn.
 */
export const memoryCaptureSchema = z.object({
  kept: z.array(z.object({ path: z.string(), entry: z.string() })),
  error: z.string().optional(),
});
export type MemoryCapture = z.infer<typeof memoryCaptureSchema>;

export const userMessageSchema = z.object({
  role: z.literal('user'),
  id: idSchema,
  text: z.string(),
  /** Pictures attached to the message (shared/chat-images.ts); absent when none. */
  images: z.array(imageRefSchema).optional(),
  /** Resources and prompts of the user's MCP servers attached to it (shared/mcp-attachments.ts); absent when none. */
  attachments: z.array(mcpAttachmentSchema).optional(),
  createdAt: z.string(),
});
export type UserMessage = z.infer<typeof userMessageSchema>;

/** A long call's progress: `done` of `total` (when known), and what the tool says it is doing. */
export const toolProgressSchema = z.object({
  done: z.number(),
  total: z.number().optional(),
  message: z.string().max(500).optional(),
});
export type ToolProgress = z.infer<typeof toolProgressSchema>;

const turnRef = { conversationId: idSchema, turnId: idSchema };

export const chatEventSchema = z.discriminatedUnion('type', [
  /** A turn began. `userMessage` is null for a retry (`retryOf` names the failed turn it replaces). */
  z.object({
    type: z.literal('turn-started'),
    ...turnRef,
    userMessage: userMessageSchema.nullable(),
    retryOf: idSchema.nullable(),
    context: contextReportSchema,
  }),
  /**
   * Earlier messages were about to leave the context (memory on, not incognito): before answering, a
   * silent model call kept what was worth keeping in today's daily note. Shown as a line in the turn.
   */
  z.object({ type: z.literal('memory-captured'), ...turnRef, capture: memoryCaptureSchema }),
  /** More of the assistant's reply text; append in order. Deltas are batched (~every 16 ms). */
  z.object({ type: z.literal('text-delta'), ...turnRef, text: z.string() }),
  /** The model called a tool; its result follows as tool-result (after any approval the tool waits for). */
  z.object({
    type: z.literal('tool-call'),
    ...turnRef,
    toolCallId: z.string(),
    name: z.string(),
    args: z.unknown(),
  }),
  /** How far a long tool call is (an MCP server's progress notifications): the card shows it until the result. */
  z.object({
    type: z.literal('tool-progress'),
    ...turnRef,
    toolCallId: z.string(),
    progress: toolProgressSchema,
  }),
  z.object({
    type: z.literal('tool-result'),
    ...turnRef,
    toolCallId: z.string(),
    name: z.string(),
    result: toolResultViewSchema,
  }),
  /**
   * The turn ended normally. `finishReason`: 'stop' (the model finished), 'length' (hit the output
   * limit), 'max-steps' (the step limit cut a tool loop short), or the provider's own reason.
   */
  z.object({
    type: z.literal('turn-finished'),
    ...turnRef,
    usage: usageSchema,
    finishReason: z.string(),
    steps: z.number().int().nonnegative(),
  }),
  /** The user stopped the turn: the partial reply is kept, marked stopped. */
  z.object({ type: z.literal('turn-stopped'), ...turnRef, reason: z.string() }),
  /** The turn failed; offer `chat.retry` (after `retryAfterSeconds` when given). */
  z.object({ type: z.literal('turn-error'), ...turnRef, error: turnErrorSchema }),
]);
export type ChatEvent = z.infer<typeof chatEventSchema>;

export const chatCalls = {
  /**
   * Sends a user message and starts a turn; answers at once with the ids, the reply streams as
   * `chat.event`. Errors: not_found (no such conversation), provider_not_configured (show the setup),
   * turn_in_progress (a turn is already running in this conversation: stop it first),
   * images_not_supported (pictures for a model that does not take them), invalid_payload (a picture
   * that is not the PNG, JPEG, GIF or WebP it claims, or too large), mcp_server_unavailable or
   * mcp_request_failed (a picked resource or prompt could not be read). Text may be empty when there are
   * images or attachments.
   */
  'chat.send': defineCall(
    z
      .object({
        conversationId: idSchema,
        text: z.string().trim().max(200_000),
        images: z.array(imageUploadSchema).max(maxImagesPerMessage).optional(),
        /** Resources (`@`) and prompts (`/server:prompt`) of the user's MCP servers: main reads them as it sends. */
        mcp: z.array(mcpAttachmentRequestSchema).max(maxMcpAttachments).optional(),
      })
      .strict()
      .refine((input) => input.text !== '' || (input.images?.length ?? 0) > 0 || (input.mcp?.length ?? 0) > 0, {
        message: 'A message needs words, a picture or an attachment.',
        path: ['text'],
      }),
    z.object({ turnId: idSchema, userMessageId: idSchema }),
  ),
  /**
   * Stops the running turn: aborts the model request, rejects pending approvals, keeps the partial
   * reply. Answers once the turn has ended; `stopped` is false when nothing was running.
   */
  'chat.stop': defineCall(z.object({ conversationId: idSchema }).strict(), z.object({ stopped: z.boolean() })),
  /**
   * Runs the last user message again after a turn that failed, was stopped or was interrupted by a
   * crash. Errors: not_found, provider_not_configured, turn_in_progress, nothing to retry (not_found).
   */
  'chat.retry': defineCall(z.object({ conversationId: idSchema }).strict(), z.object({ turnId: idSchema })),
};

export const chatEvents = {
  'chat.event': chatEventSchema,
};
