import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where Familiar keeps its data. Electron passes `userData`; browser and MCP modes use this. */
export function defaultFamiliarHome(env: NodeJS.ProcessEnv = process.env): string {
  const override = env['FAMILIAR_HOME'];
  return override !== undefined && override.trim() !== '' ? override : join(homedir(), '.familiar');
}

export interface FamiliarPaths {
  readonly home: string;
  /** The default workspace: also where SOUL.md, USER.md and MEMORY.md live, whatever folder is open. */
  readonly defaultWorkspace: string;
  readonly conversations: string;
  /** Pictures attached to chat messages, one file per SHA-256 of its bytes (shared by every transcript). */
  readonly chatImages: string;
  readonly audit: string;
  readonly backups: string;
  readonly trash: string;
  /** Versions of SOUL.md, USER.md and MEMORY.md. */
  readonly history: string;
  /** Saved semantic-search indexes, one file per workspace: a cache, rebuilt when missing or stale. */
  readonly searchIndexes: string;
  /** Saved trigram indexes of search_in_code, one file per workspace: a cache, validated on reopen. */
  readonly ngramIndexes: string;
  /** Agent Skills the user keeps with Familiar (after <workspace>/.agents/skills and ~/.agents/skills). */
  readonly skills: string;
  /** The heartbeat's and scheduled tasks' run history and what was last handled (main/domain/schedules). */
  readonly schedules: string;
  readonly settingsFile: string;
  readonly policyFile: string;
  readonly secretsFile: string;
}

/** `defaultWorkspace`: the desktop app's visible folder (see default-workspace.ts); otherwise inside the home. */
export function familiarPaths(home: string, defaultWorkspace = join(home, 'workspace')): FamiliarPaths {
  return {
    home,
    defaultWorkspace,
    conversations: join(home, 'conversations'),
    chatImages: join(home, 'chat-images'),
    audit: join(home, 'audit'),
    backups: join(home, 'backups'),
    trash: join(home, 'trash'),
    history: join(home, 'history'),
    searchIndexes: join(home, 'search-index'),
    ngramIndexes: join(home, 'ngram-index'),
    skills: join(home, 'skills'),
    schedules: join(home, 'schedules'),
    settingsFile: join(home, 'settings.json'),
    policyFile: join(home, 'policy.json'),
    secretsFile: join(home, 'secrets.json'),
  };
}
