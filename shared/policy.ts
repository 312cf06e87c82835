import { z } from 'zod';

export const policyOperations = ['read', 'write', 'edit', 'delete', 'move', 'run'] as const;
export const policyOperationSchema = z.enum(policyOperations);
export type PolicyOperation = z.infer<typeof policyOperationSchema>;

export const policyDecisionSchema = z.enum(['allow', 'ask', 'deny']);
export type PolicyDecision = z.infer<typeof policyDecisionSchema>;

/**
 * One row of the permission table: a glob over workspace-relative paths and, per operation, what
 * happens. An operation a row does not mention falls through to the next matching row. `memory`
 * rows exist only while memory is on: with memory off their paths are refused outright.
 */
export const policyRuleSchema = z
  .object({
    pattern: z.string().trim().min(1).max(500),
    decisions: z.partialRecord(policyOperationSchema, policyDecisionSchema),
    memory: z.boolean().default(false),
    note: z.string().max(500).optional(),
  })
  .strict();
export type PolicyRule = z.infer<typeof policyRuleSchema>;

export const policySchema = z
  .object({
    version: z.literal(1),
    rules: z.array(policyRuleSchema).min(1).max(200),
  })
  .strict()
  .superRefine((policy, ctx) => {
    // Without a catch-all the answer for an unlisted file would be implicit; make it explicit.
    const last = policy.rules.at(-1);
    if (last?.pattern !== '**') {
      ctx.addIssue({ code: 'custom', message: 'The last rule must be the catch-all pattern "**".', path: ['rules'] });
    } else if (policyOperations.some((operation) => last.decisions[operation] === undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: 'The catch-all rule "**" must decide every operation (read, write, edit, delete, move, run).',
        path: ['rules', policy.rules.length - 1, 'decisions'],
      });
    }
  });
export type Policy = z.infer<typeof policySchema>;

/** USER.md and MEMORY.md: free to read and change while memory is on, never deleted or moved. */
const memoryFileRule = (pattern: string, note: string): PolicyRule => ({
  pattern,
  decisions: { read: 'allow', write: 'allow', edit: 'allow', delete: 'deny', move: 'deny' },
  memory: true,
  note,
});

/** The defaults from the design: the persona asks, memory is free but gated, everything else asks to change. */
export const defaultPolicy = (): Policy => ({
  version: 1,
  rules: [
    {
      pattern: 'SOUL.md',
      decisions: { read: 'allow', write: 'ask', edit: 'ask', delete: 'deny', move: 'deny' },
      memory: false,
      note: 'The persona: every change waits for your approval.',
    },
    memoryFileRule('USER.md', 'What the assistant knows about you: free while memory is on.'),
    memoryFileRule('MEMORY.md', 'Long-term memory: free while memory is on.'),
    {
      pattern: 'memory/**',
      decisions: { read: 'allow', write: 'allow', edit: 'allow', delete: 'ask', move: 'ask' },
      memory: true,
      note: 'Dated notes: free while memory is on; deleting asks.',
    },
    {
      pattern: '**',
      decisions: { read: 'allow', write: 'ask', edit: 'ask', delete: 'ask', move: 'ask', run: 'ask' },
      memory: false,
      note: 'Every other file: reading is free, changing asks.',
    },
  ],
});
