import { z } from 'zod';
import { defineCall } from './define';

export const personaFileNameSchema = z.enum(['SOUL.md', 'USER.md', 'MEMORY.md', 'HEARTBEAT.md']);

export const versionSummarySchema = z.object({
  id: z.string(),
  file: personaFileNameSchema,
  at: z.iso.datetime(),
  /** Who made the change: the assistant (approved or free), or the user (in Familiar or outside it). */
  author: z.enum(['assistant', 'user']),
  conversationId: z.string().optional(),
  reason: z.string(),
  chars: z.number().int().nonnegative(),
});
export type VersionSummary = z.infer<typeof versionSummarySchema>;

export const versionSchema = versionSummarySchema.extend({ text: z.string() });
export type PersonaVersion = z.infer<typeof versionSchema>;

const MAX_PERSONA_CHARS = 1_000_000;

export const historyCalls = {
  /** Versions of one persona file, newest first. */
  'history.list': defineCall(
    z.object({ file: personaFileNameSchema }).strict(),
    z.object({ versions: z.array(versionSummarySchema), current: z.string() }),
  ),
  'history.get': defineCall(z.object({ file: personaFileNameSchema, id: z.string() }).strict(), versionSchema),
  /** Writes that version back; the revert is itself a new version. */
  'history.revert': defineCall(
    z.object({ file: personaFileNameSchema, id: z.string() }).strict(),
    versionSummarySchema,
  ),
  'persona.read': defineCall(z.object({ file: personaFileNameSchema }).strict(), z.object({ text: z.string() })),
  /** The user's own edit of a persona file (from settings): kept as a version like any other. */
  'persona.write': defineCall(
    z.object({ file: personaFileNameSchema, text: z.string().max(MAX_PERSONA_CHARS) }).strict(),
    versionSummarySchema,
  ),
};

export const historyEvents = {
  'history.changed': z.object({ file: personaFileNameSchema }),
};
