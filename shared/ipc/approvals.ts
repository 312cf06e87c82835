import { z } from 'zod';
import { policyOperationSchema } from '../policy';
import { askedInConversation } from './asked-in-conversation';
import { defineCall } from './define';

/** Largest text the user may put in place of the model's proposal: write_file's own cap. */
export const MAX_EDITED_CONTENT_CHARS = 5 * 1024 * 1024;

/** The most of an MCP call's arguments an approval card carries. */
export const MAX_MCP_ARGUMENT_CHARS = 200_000;

/** One file of a change to several files (a rename): the diff dialog lists them and shows one at a time. */
export const approvalFileSchema = z.object({
  path: z.string(),
  before: z.string(),
  after: z.string(),
  /** How many separate edits the file gets (a rename's occurrences), when the tool knows. */
  changes: z.number().int().nonnegative().optional(),
});
export type ApprovalFile = z.infer<typeof approvalFileSchema>;

/** A value the user gives in a server's form: text, a number, a yes/no, or several choices. */
export const elicitationValueSchema = z.union([
  z.string().max(10_000),
  z.number(),
  z.boolean(),
  z.array(z.string()).max(100),
]);

/**
 * One field of a server's form (elicitation, form mode), as the dialog draws it: text (with a format
 * hint), a number (integer or not, within bounds), a yes/no, one choice or several of listed options.
 */
export const elicitationFieldSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  kind: z.enum(['text', 'number', 'integer', 'boolean', 'choice', 'choices']),
  required: z.boolean(),
  /** email, uri, date, date-time for text. */
  format: z.string().optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  options: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
  default: elicitationValueSchema.optional(),
});
export type ElicitationField = z.infer<typeof elicitationFieldSchema>;

export const approvalRequestSchema = z.object({
  ...askedInConversation,
  toolCallId: z.string(),
  tool: z.string(),
  /** One line a person can judge at a glance. */
  summary: z.string(),
  /** Every workspace path the call touches, and what it does to them. */
  paths: z.array(z.string()),
  operations: z.array(policyOperationSchema),
  /** Full text before and after, for writes and edits: the diff dialog shows both. */
  before: z.string().optional(),
  after: z.string().optional(),
  beforeBytes: z.number().int().nonnegative().optional(),
  afterBytes: z.number().int().nonnegative().optional(),
  /**
   * A change to several files, applied all or none: each file's texts (before/after are then
   * absent). Such a change is approved or rejected as the tool computed it, never edited.
   */
  files: z.array(approvalFileSchema).min(1).optional(),
  /** The command and its directory, a move's destination... */
  facts: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  /** The target is the assistant's persona (SOUL.md). */
  persona: z.boolean(),
  /** Whether "allow this file for the rest of the conversation" is offered (never for the persona). */
  canAllowForConversation: z.boolean(),
  /** For SOUL.md: the persona section of the system prompt as it will be after this change (caps applied). */
  promptPreview: z.string().optional(),
  /**
   * The question is a running command's request to reach this host and port (run_command's
   * network, issue 28): approving allows it for the rest of that command, for the conversation
   * (allowForConversation), or always in this workspace (allowForWorkspace, kept in settings).
   * kind 'web': web_fetch's request to read a page from this host (issue 30): allowed for this
   * fetch, the conversation, or always (allowForWorkspace, kept in settings web.allowedHosts).
   * kind 'mcp-server': the user's MCP server `server` reaches for this host (issue 29): allowed for
   * this request, or always for that server (allowForWorkspace, kept in its grants in settings).
   */
  network: z
    .object({
      host: z.string(),
      port: z.number().int().min(1).max(65535),
      kind: z.enum(['command', 'web', 'mcp-server']).optional(),
      server: z.string().optional(),
    })
    .optional(),
  /**
   * The call is a tool of the user's MCP server (issue 29): the card names the server and the tool,
   * shows its annotations and the full arguments as formatted JSON. Approving may allow it for the
   * conversation (allowForConversation) or always (allowAlways, kept in settings, revocable there).
   */
  mcp: z
    .object({
      server: z.string(),
      tool: z.string(),
      title: z.string().optional(),
      annotations: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
      /** JSON.stringify(arguments, null, 2), cut at MAX_MCP_ARGUMENT_CHARS with a marker. */
      arguments: z.string(),
    })
    .optional(),
  /**
   * A question from the user's MCP server while its tool runs (elicitation): a form whose fields the
   * dialog draws (approve = accept with the values, reject = decline, dismissed = cancel), or a link
   * the page opens in the system browser once the user approves (its host shown first).
   */
  elicitation: z
    .object({
      server: z.string(),
      message: z.string(),
      mode: z.enum(['form', 'url']),
      fields: z.array(elicitationFieldSchema).default([]),
      url: z.string().optional(),
      host: z.string().optional(),
    })
    .optional(),
  /**
   * The user's MCP server asks the conversation's model (sampling/createMessage): the messages it
   * sends and the most tokens the answer may have (its own wish capped by settings mcp.samplingMaxTokens).
   */
  sampling: z
    .object({
      server: z.string(),
      systemPrompt: z.string().optional(),
      messages: z.array(z.object({ role: z.enum(['user', 'assistant']), text: z.string() })),
      maxTokens: z.number().int().positive(),
      requestedMaxTokens: z.number().int().positive(),
    })
    .optional(),
  /** Reasons to look twice, e.g. file content read earlier in the turn may be steering this change. */
  warnings: z.array(z.string()).default([]),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
});
export type ApprovalRequest = z.infer<typeof approvalRequestSchema>;

export const approvalAnswerSchema = z.discriminatedUnion('decision', [
  z
    .object({
      id: z.string(),
      decision: z.literal('approve'),
      /** The user's own text instead of `after`: this is what gets written. */
      editedContent: z.string().max(MAX_EDITED_CONTENT_CHARS).optional(),
      allowForConversation: z.boolean().default(false),
      /** For a network question only: allow the host in this workspace from now on. */
      allowForWorkspace: z.boolean().optional(),
      /** For an MCP server tool only: allow this tool of this server from now on (settings: mcp.alwaysAllowed). */
      allowAlways: z.boolean().optional(),
      /** For a server's form only: the values the user gave, by field name. */
      elicitationContent: z.record(z.string(), elicitationValueSchema).optional(),
    })
    .strict(),
  z
    .object({
      id: z.string(),
      decision: z.literal('reject'),
      reason: z.string().trim().max(2000).optional(),
      /** For a server's question only: dismissed without an answer (cancel), rather than declined. */
      dismissed: z.boolean().optional(),
    })
    .strict(),
]);
export type ApprovalAnswer = z.infer<typeof approvalAnswerSchema>;

export const approvalOutcomeSchema = z.enum(['approved', 'approved-edited', 'rejected', 'expired', 'cancelled']);
export type ApprovalOutcomeKind = z.infer<typeof approvalOutcomeSchema>;

export const approvalResolvedSchema = z.object({
  ...askedInConversation,
  outcome: approvalOutcomeSchema,
  reason: z.string().optional(),
});

export const approvalCalls = {
  /** Pending requests, oldest first. */
  'approvals.list': defineCall(z.object({}).strict(), z.object({ pending: z.array(approvalRequestSchema) })),
  'approvals.answer': defineCall(approvalAnswerSchema, approvalResolvedSchema),
};

export const approvalEvents = {
  'approvals.requested': approvalRequestSchema,
  'approvals.resolved': approvalResolvedSchema,
};
