import { z } from 'zod';
import { policyDecisionSchema, policyOperationSchema, policySchema } from '../policy';
import { defineCall } from './define';

export const toolInfoSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** Exists only while memory is on. */
  memoryOnly: z.boolean(),
  /** For each operation the tool can make, the policy rows that decide it, first match first. */
  operations: z.array(
    z.object({
      operation: policyOperationSchema,
      rules: z.array(z.object({ pattern: z.string(), decision: policyDecisionSchema })),
    }),
  ),
});
export type ToolInfo = z.infer<typeof toolInfoSchema>;

export const toolListSchema = z.object({ memoryEnabled: z.boolean(), tools: z.array(toolInfoSchema) });
export type ToolList = z.infer<typeof toolListSchema>;

export const personaFileInfoSchema = z.object({
  name: z.enum(['SOUL.md', 'USER.md', 'MEMORY.md', 'HEARTBEAT.md']),
  /** Where the file lives on disk: always the Familiar home, whatever workspace is open. */
  path: z.string(),
  exists: z.boolean(),
  chars: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  /** Its cap in the system prompt, and how much of it the model sees right now (0 when memory hides it). */
  cap: z.number().int().nonnegative(),
  includedChars: z.number().int().nonnegative(),
  omittedChars: z.number().int().nonnegative(),
  /** False for USER.md and MEMORY.md while memory is off. */
  inPrompt: z.boolean(),
});
export type PersonaFileInfo = z.infer<typeof personaFileInfoSchema>;

export const personaInfoSchema = z.object({
  dir: z.string(),
  dailyNotesDir: z.string(),
  files: z.array(personaFileInfoSchema),
  totalCap: z.number().int().positive(),
});
export type PersonaInfo = z.infer<typeof personaInfoSchema>;

export const policyStateSchema = z.object({
  policy: policySchema,
  /** Why policy.json was not used at start-up, if it was not (the defaults apply meanwhile). */
  loadError: z.string().nullable(),
});

export const assistantCalls = {
  /** Exactly the tools the model is offered right now, with the policy that applies to each. */
  'tools.list': defineCall(z.object({}).strict(), toolListSchema),
  'policy.get': defineCall(z.object({}).strict(), policyStateSchema),
  /** Refused with invalid_policy (the current table kept) unless the whole table is valid. */
  'policy.update': defineCall(z.object({ policy: z.unknown() }).strict(), policyStateSchema),
  'policy.reset': defineCall(z.object({}).strict(), policyStateSchema),
  'persona.info': defineCall(z.object({}).strict(), personaInfoSchema),
};

export const assistantEvents = {
  /** The memory switch or the policy changed: the tool list the model sees has changed with it. */
  'tools.changed': toolListSchema,
};
