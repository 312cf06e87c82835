import { ok } from '../../../shared/result';
import type { Handlers } from '../../platform/ipc/dispatcher';
import type { AnchorRoots } from '../../platform/disk/anchor-roots';
import type { WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import { findSkills, outsidePlaces, skillRow, workspacePlace } from './skill-catalog';
import type { FoundSkill } from './skill-catalog';

/**
 * The skills Familiar knows, read afresh from the three places whenever asked (a skill added,
 * edited or switched off applies at the next turn). Only reads: skills outside the workspace are
 * the user's, never written by the assistant.
 */
export interface SkillShelf {
  /** The two places outside the workspace (~/.agents/skills, the home's skills/), absolute. */
  readonly outsideDirs: readonly string[];
  /** Every skill folder, for the open workspace: what Settings → Skills lists. */
  find(workspace: WorkspaceSandbox): Promise<FoundSkill[]>;
  /** The skills offered to the model: valid, switched on, first of their name. */
  loaded(workspace: WorkspaceSandbox): Promise<FoundSkill[]>;
  /** Whether the last look found a skill to offer (the skill tool is offered only then). */
  current(): boolean;
  /** Looks again in this workspace (before each turn's tool list). */
  refresh(workspace: WorkspaceSandbox): Promise<boolean>;
}

export interface SkillShelfOptions {
  readonly roots: AnchorRoots;
  /** ~/.agents/skills */
  readonly userDir: string;
  /** <Familiar home>/skills */
  readonly familiarDir: string;
  readonly familiarHome: string;
  /** Names switched off in settings (skills.disabled), read on every look. */
  readonly disabled: () => readonly string[];
}

export function createSkillShelf(options: SkillShelfOptions): SkillShelf {
  const outside = outsidePlaces(options.roots, {
    user: options.userDir,
    familiar: options.familiarDir,
    familiarHome: options.familiarHome,
  });
  const find = (workspace: WorkspaceSandbox) => findSkills([workspacePlace(workspace), ...outside], options.disabled());
  const loaded = async (workspace: WorkspaceSandbox) => (await find(workspace)).filter((skill) => skill.loaded);
  let available = false;
  return {
    outsideDirs: [options.userDir, options.familiarDir],
    find,
    loaded,
    current: () => available,
    async refresh(workspace) {
      try {
        available = (await loaded(workspace)).length > 0;
      } catch {
        available = false;
      }
      return available;
    },
  };
}

/** Settings → Skills: the rows (the switches are settings: skills.disabled). */
export function createSkillHandlers(
  shelf: SkillShelf,
  workspace: () => Promise<WorkspaceSandbox>,
): Pick<Handlers, 'skills.list'> {
  return {
    'skills.list': async () => ok({ skills: (await shelf.find(await workspace())).map(skillRow) }),
  };
}
