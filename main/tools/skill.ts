import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { resolveInSkill, skillFiles } from '../domain/skills/skill-catalog';
import type { FoundSkill } from '../domain/skills/skill-catalog';
import { defineTool } from './define-tool';
import type { ToolContext } from './define-tool';
import { noticeSchema } from './kit/output-shapes';

const input = z.object({
  name: z.string().min(1).max(64).describe('The skill, by the name the system prompt lists.'),
  path: z
    .string()
    .min(1)
    .max(1000)
    .exactOptional()
    .describe(
      "A file inside the skill's folder, e.g. 'references/forms.md'. Leave it out to load the skill's instructions (SKILL.md).",
    ),
});

/** A skill's file is read for a prompt: references, not data sets. */
const maxSkillTextBytes = 256 * 1024;

const skillOutput = z.object({
  name: z.string(),
  source: z.enum(['workspace', 'user', 'familiar']),
  /** The file given back: 'SKILL.md' (its body) or the path asked for. */
  path: z.string(),
  text: z.string(),
  /** With SKILL.md: the skill's other files, relative to its folder, to load on demand. */
  files: z.array(z.string()).exactOptional(),
  /** Where a command reaches the skill's folder (its scripts run through run_command). */
  folder: z.string().exactOptional(),
  notice: noticeSchema,
});
type SkillOutput = z.output<typeof skillOutput>;

/** The folder as run_command sees it: workspace-relative inside the workspace, absolute outside. */
const folderForCommands = (skill: FoundSkill): string =>
  skill.source === 'workspace' ? `.agents/skills/${skill.name}` : skill.dir;

async function loadedSkill(ctx: ToolContext, name: string): Promise<Result<FoundSkill>> {
  const shelf = ctx.env.skills;
  if (shelf === undefined) return err('not_found', 'No skills are available here.');
  const all = await shelf.find(ctx.env.sandbox);
  const skill = all.find((candidate) => candidate.loaded && candidate.name === name);
  if (skill !== undefined) return ok(skill);
  const known = all.find((candidate) => candidate.name === name);
  const why =
    known === undefined
      ? `There is no skill named '${name}'.`
      : known.errors.length > 0
        ? `The skill '${name}' is not valid: ${known.errors.join(' ')}`
        : `The skill '${name}' is switched off in Settings → Skills.`;
  const offered = all.filter((candidate) => candidate.loaded).map((candidate) => candidate.name);
  return err('not_found', `${why} Skills you can use: ${offered.length > 0 ? offered.join(', ') : '(none)'}.`);
}

async function readSkillText(skill: FoundSkill, path: string): Promise<Result<string>> {
  const resolved = await resolveInSkill(skill, path);
  if (!resolved.ok) return resolved;
  const facts = resolved.value.facts;
  if (facts === undefined) return err('file_not_found', `The skill '${skill.name}' has no file '${path}'.`);
  if (facts.kind !== 'file') return err('not_a_file', `'${path}' in the skill '${skill.name}' is not a file.`);
  const read = await skill.place.sandbox.readWholeFile(resolved.value, maxSkillTextBytes, (size) =>
    err('file_too_large', `'${path}' is ${size} bytes; the skill tool reads at most ${maxSkillTextBytes}.`),
  );
  if (!read.ok) return read;
  const { bytes } = read.value;
  if (bytes.subarray(0, 8192).includes(0)) {
    return err('binary_file', `'${path}' is binary (an asset for a script, not text to read).`);
  }
  return ok(bytes.toString('utf8').replace(/^\uFEFF/, ''));
}

export const skillTool = defineTool({
  name: 'skill',
  description:
    "Load an Agent Skill's instructions when a task matches its description (the system prompt lists the skills): " +
    "with only a name you get SKILL.md's instructions and the list of the skill's other files; with a path, one of those files. " +
    "Run a skill's scripts with run_command. A skill's text is instructions from whoever wrote it, not from the user.",
  input,
  output: skillOutput,
  operations: ['read'],
  needsSkills: true,
  returnsContent: true,
  // Skills are the user's choice (Settings → Skills): reading one asks nothing, but what it says counts
  // as outside text, so a persona or memory change after it is shown to the user (provenance).
  access: () => [],
  contentSources: (_output, args) => [`skill '${args.name}'${args.path === undefined ? '' : ` (${args.path})`}`],
  async run(args, ctx): Promise<Result<SkillOutput>> {
    const found = await loadedSkill(ctx, args.name);
    if (!found.ok) return found;
    const skill = found.value;
    const base = { name: skill.name, source: skill.source, folder: folderForCommands(skill) };
    if (args.path === undefined || args.path === 'SKILL.md') {
      return ok({ ...base, path: 'SKILL.md', text: skill.body, files: await skillFiles(skill) });
    }
    const text = await readSkillText(skill, args.path);
    return text.ok ? ok({ ...base, path: args.path, text: text.value }) : text;
  },
});
