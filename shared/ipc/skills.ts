import { z } from 'zod';
import { defineCall } from './define';

/** Where a skill was found, in order of precedence: <workspace>/.agents/skills, ~/.agents/skills, the Familiar home's skills/. */
export const skillSourceSchema = z.enum(['workspace', 'user', 'familiar']);
export type SkillSource = z.infer<typeof skillSourceSchema>;

/** One skill folder as Settings → Skills shows it: valid or not, on or off, loaded or shadowed. */
export const skillRowSchema = z.object({
  /** The folder's name (a valid skill's name is the same). */
  name: z.string(),
  description: z.string(),
  source: skillSourceSchema,
  /** Absolute folder path. */
  dir: z.string(),
  /** The switch (settings: skills.disabled). */
  enabled: z.boolean(),
  /** Offered to the model: valid, on, and not shadowed by a skill of the same name found first. */
  loaded: z.boolean(),
  /** Why the skill is not loaded (its front matter breaks the specification): shown, never loaded. */
  errors: z.array(z.string()),
  /** Shown; the skill still loads. */
  warnings: z.array(z.string()),
  shadowedBy: skillSourceSchema.optional(),
});
export type SkillRow = z.infer<typeof skillRowSchema>;

export const skillListSchema = z.object({ skills: z.array(skillRowSchema) });

export const skillCalls = {
  /** Every skill folder in the three places, for the open workspace. */
  'skills.list': defineCall(z.object({}).strict(), skillListSchema),
};
