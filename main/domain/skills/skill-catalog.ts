import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { SkillRow, SkillSource } from '../../../shared/ipc/skills';
import type { AnchorRoots } from '../../platform/disk/anchor-roots';
import { createDenyList } from '../../platform/disk/deny-list';
import { createWorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import type { ResolvedPath, WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import type { SkillMeta } from './skill-file';

/** Where skills are looked for, in order of precedence: the first skill of a name wins. */
export const skillSources: readonly SkillSource[] = ['workspace', 'user', 'familiar'];

/** A SKILL.md is instructions for a prompt: far below this. */
const maxSkillFileBytes = 1024 * 1024;
/** Folders looked at per place, and files listed per skill: a skills folder is small. */
const maxSkillsPerPlace = 200;
const maxFilesListed = 200;

/** One folder skills are found in, read through a sandbox rooted where it can reach it. */
export interface SkillPlace {
  readonly source: SkillSource;
  /** Absolute, for the user to see. */
  readonly dir: string;
  readonly sandbox: WorkspaceSandbox;
  /** The folder's path within the sandbox ('' when the sandbox is rooted at it). */
  readonly prefix: string;
}

/** A skill as found: valid or not, on or off, loaded or shadowed. */
export interface FoundSkill extends SkillRow {
  readonly place: SkillPlace;
  readonly meta?: SkillMeta;
  readonly body: string;
}

const joinRel = (...parts: string[]): string => parts.filter((part) => part !== '').join('/') || '.';

/**
 * The two places outside the workspace, read-only: each through a sandbox rooted at it, so a
 * symlink out of it (or into Familiar's own data) is refused like one out of the workspace. Nothing
 * here writes; the skill tool reads.
 */
export function outsidePlaces(
  roots: AnchorRoots,
  dirs: { readonly user: string; readonly familiar: string; readonly familiarHome: string },
): SkillPlace[] {
  const place = (source: SkillSource, dir: string, protectedDirs: string[]): SkillPlace => ({
    source,
    dir,
    prefix: '',
    sandbox: createWorkspaceSandbox({
      workspaceRoot: dir,
      personaDir: dir,
      roots,
      protectedDirs,
      isConcealed: () => false,
      denyList: createDenyList([]),
    }),
  });
  return [place('user', dirs.user, [dirs.familiarHome]), place('familiar', dirs.familiar, [])];
}

/** The workspace's own skills, through the tool's sandbox (its deny-list and concealment apply). */
export const workspacePlace = (sandbox: WorkspaceSandbox): SkillPlace => ({
  source: 'workspace',
  dir: `${sandbox.workspaceRoot}/.agents/skills`,
  sandbox,
  prefix: '.agents/skills',
});

async function readSkillFolder(place: SkillPlace, folder: string): Promise<Omit<FoundSkill, 'enabled' | 'loaded'>> {
  const base = { name: folder, source: place.source, dir: `${place.dir}/${folder}`, place };
  const refused = (message: string) => ({ ...base, description: '', body: '', errors: [message], warnings: [] });
  const file = await place.sandbox.resolve(joinRel(place.prefix, folder, 'SKILL.md'), 'read');
  if (!file.ok) return refused(`SKILL.md cannot be read: ${file.error.message}`);
  if (file.value.facts?.kind !== 'file') return refused('The folder has no SKILL.md.');
  const read = await place.sandbox.readWholeFile(file.value, maxSkillFileBytes, (size) =>
    err('file_too_large', `SKILL.md is ${size} bytes; at most ${maxSkillFileBytes} are read.`),
  );
  if (!read.ok) return refused(`SKILL.md cannot be read: ${read.error.message}`);
  // The YAML parser (~40-50 ms of loading) comes with the first skill, not with every start.
  const { parseSkillFile } = await import('./skill-file');
  const parsed = parseSkillFile(read.value.bytes.toString('utf8'), folder);
  return {
    ...base,
    description: parsed.meta?.description ?? '',
    body: parsed.body,
    errors: [...parsed.errors],
    warnings: [...parsed.warnings],
    ...(parsed.meta === undefined ? {} : { meta: parsed.meta }),
  };
}

async function skillsIn(place: SkillPlace): Promise<Omit<FoundSkill, 'enabled' | 'loaded'>[]> {
  const root = await place.sandbox.resolve(joinRel(place.prefix), 'read');
  if (!root.ok || root.value.facts?.kind !== 'directory') return [];
  const listed = place.sandbox.listDir(root.value);
  if (!listed.ok) return [];
  const folders = listed.value
    .filter((entry) => (entry.kind === 'directory' || entry.kind === 'symlink') && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort()
    .slice(0, maxSkillsPerPlace);
  return Promise.all(folders.map((folder) => readSkillFolder(place, folder)));
}

/**
 * Every skill in the three places, in precedence order. A valid skill is loaded when it is on and
 * no place before it has a valid skill of the same name; an invalid one is shown, never loaded.
 */
export async function findSkills(places: readonly SkillPlace[], disabled: readonly string[]): Promise<FoundSkill[]> {
  const found = (await Promise.all(places.map(skillsIn))).flat();
  const winners = new Map<string, SkillSource>();
  return found.map((skill) => {
    const enabled = !disabled.includes(skill.name);
    const winner = skill.errors.length === 0 ? winners.get(skill.name) : undefined;
    if (skill.errors.length === 0 && winner === undefined) winners.set(skill.name, skill.source);
    return {
      ...skill,
      enabled,
      loaded: skill.errors.length === 0 && winner === undefined && enabled,
      ...(winner === undefined ? {} : { shadowedBy: winner }),
    };
  });
}

/** The row the settings page shows (no body, no sandbox). */
export const skillRow = (skill: FoundSkill): SkillRow => ({
  name: skill.name,
  description: skill.description,
  source: skill.source,
  dir: skill.dir,
  enabled: skill.enabled,
  loaded: skill.loaded,
  errors: skill.errors,
  warnings: skill.warnings,
  ...(skill.shadowedBy === undefined ? {} : { shadowedBy: skill.shadowedBy }),
});

/**
 * A path inside a skill's folder, refused when it leaves it: '..' and absolute paths by their
 * text, a symlink by where it really leads (out of the folder, even into another skill).
 */
export async function resolveInSkill(skill: FoundSkill, path: string): Promise<Result<ResolvedPath>> {
  const { sandbox, prefix } = skill.place;
  const segments = path.replaceAll('\\', '/').split('/');
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path) || segments.includes('..')) {
    return err(
      'invalid_path',
      `'${path}' leaves the skill's folder; give a path inside it, such as 'references/x.md'.`,
    );
  }
  const folder = await sandbox.resolve(joinRel(prefix, skill.name), 'read');
  if (!folder.ok) return folder;
  const resolved = await sandbox.resolve(joinRel(prefix, skill.name, path), 'read');
  if (!resolved.ok) {
    return resolved.error.code === 'symlink_escape'
      ? err('symlink_escape', `'${path}' leads outside the skill's folder through a symbolic link.`)
      : resolved;
  }
  const inside = folder.value.realRel === '' || resolved.value.realRel.startsWith(`${folder.value.realRel}/`);
  if (!inside) return err('symlink_escape', `'${path}' leads outside the skill's folder through a symbolic link.`);
  return ok(resolved.value);
}

/** The files of a skill's folder (scripts/, references/, assets/...), relative to it. */
export async function skillFiles(skill: FoundSkill): Promise<string[]> {
  const { sandbox, prefix } = skill.place;
  const folder = await sandbox.resolve(joinRel(prefix, skill.name), 'read');
  if (!folder.ok) return [];
  const start = `${joinRel(prefix, skill.name)}/`;
  const files: string[] = [];
  await sandbox.walk(folder.value, {
    recursive: true,
    includeHidden: false,
    visit: (entry) => {
      if (entry.kind === 'file' && entry.relPath.startsWith(start)) files.push(entry.relPath.slice(start.length));
      return files.length >= maxFilesListed ? 'stop' : 'continue';
    },
  });
  return files.sort();
}
