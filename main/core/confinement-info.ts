import { homedir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import type { ConfinementInfo, ProcessKind, ProcessRulesSummary, SearchEngineInfo } from '../../shared/ipc/app';
import { appFolders, confinementMode, homeToolchains } from '../platform/processes/confinement';
import type { ProcessKind as RulesKind } from '../platform/processes/process-rules';
import type { ToolEnvironment } from '../tools/kit/tool-environment';

/**
 * Every kind the rules know, in the order Settings lists them. A kind added to process-rules.ts
 * stops this from compiling until shared/ipc/app.ts (and so the page, which names each) knows it.
 */
const kinds: Record<RulesKind, ProcessKind> = {
  command: 'command',
  git: 'git',
  ripgrep: 'ripgrep',
  'language-server': 'language-server',
};

const inside = (path: string, folder: string) => {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * What app.confinement answers: the mode, and each kind's rules exactly as a process started now
 * would get them (the environment's confinementFor: this workspace, the memory switch, the user's
 * readable folders, `readableInHome` as the settings hold them), with workspace paths made
 * workspace-relative for people to read.
 */
export function describeConfinement(
  env: Pick<ToolEnvironment, 'workspaceRoot' | 'personaDir' | 'confinementFor'>,
  readableInHome: readonly string[],
  search: SearchEngineInfo,
  userHome = homedir(),
): ConfinementInfo {
  // Persona names resolve to the persona folder whatever folder is open: both read as the workspace.
  const shown = (path: string) => {
    for (const root of [env.workspaceRoot, env.personaDir]) {
      if (inside(path, root)) return relative(root, path) || '.';
    }
    return path;
  };
  const names = (paths: readonly string[]) => [...new Set(paths.map(shown))];
  const processes = Object.values(kinds).map((kind): ProcessRulesSummary => {
    const rules = env.confinementFor(kind);
    const seen = [...rules.readable, ...rules.writable];
    return {
      kind,
      writes: names(rules.writable),
      reads: names(rules.readable),
      // bwrap applies read-only and hidden paths only inside what the process sees (confinement.ts).
      readOnly: names(rules.readOnly.filter((path) => rules.writable.some((folder) => inside(path, folder)))),
      hidden: names(rules.hidden.filter((path) => seen.some((folder) => inside(path, folder)))),
      // Every kind runs in an empty network namespace (bwrap --unshare-all); a command alone may be
      // given a proxy that asks the user per host (network-proxy.ts).
      network: kind === 'command',
      // ripgrep sees of them only the one its binary is in (process-rules.ts).
      toolchains: kind !== 'ripgrep',
    };
  });
  const command = env.confinementFor('command');
  const toolchains = homeToolchains(userHome);
  const built = new Set([...toolchains, ...appFolders()]);
  const added = command.readableInHidden.filter((path) => !built.has(path));
  const mode = confinementMode();
  return {
    mode: mode.confined
      ? { confined: true, tool: mode.tool, path: mode.path }
      : { confined: false, reason: mode.reason, fix: mode.fix },
    search,
    processes,
    hiddenTrees: [...command.hiddenTrees],
    toolchains,
    readableInHome: added,
    leftOut: readableInHome.filter((entry) => !added.includes(join(userHome, ...entry.split('/').filter(Boolean)))),
    userHome,
  };
}
