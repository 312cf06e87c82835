import { z } from 'zod';
import { defineCall } from './define';

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  /** 'desktop' when the page is hosted by Electron, 'browser' when served by `npm run serve`. */
  mode: z.enum(['desktop', 'browser']),
  platform: z.string(),
  workspacePath: z.string(),
  homePath: z.string(),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

/** The kinds of process Familiar starts, each under its own rules (main/platform/processes/process-rules.ts). */
export const processKindSchema = z.enum(['command', 'git', 'ripgrep', 'language-server']);
export type ProcessKind = z.infer<typeof processKindSchema>;

/** Whether the operating system confines what Familiar starts; when not, why and how to fix it. */
export const confinementModeSchema = z.discriminatedUnion('confined', [
  z.object({ confined: z.literal(true), tool: z.string(), path: z.string() }),
  z.object({ confined: z.literal(false), reason: z.string(), fix: z.string() }),
]);
export type ConfinementMode = z.infer<typeof confinementModeSchema>;

/**
 * What one kind of process may touch, as its rules say for the open workspace and the memory switch
 * now. Paths inside the workspace are workspace-relative ('.' is the workspace itself).
 */
export const processRulesSummarySchema = z.object({
  kind: processKindSchema,
  /** Folders it may write. */
  writes: z.array(z.string()),
  /** Folders it may read besides the system and the toolchains (what it writes it reads too). */
  reads: z.array(z.string()),
  /** Inside what it writes: kept read-only (persona files, git hooks...). */
  readOnly: z.array(z.string()),
  /** Inside what it sees: not there at all (memory files while memory is off). */
  hidden: z.array(z.string()),
  /** Whether it may reach the network. */
  network: z.boolean(),
  /** It sees every toolchain in the home again; false: only the one its own program comes from (ripgrep). */
  toolchains: z.boolean(),
});
export type ProcessRulesSummary = z.infer<typeof processRulesSummarySchema>;

/**
 * Which engine search_in_code uses: the ripgrep the packaged app ships (a pinned, checked version),
 * ripgrep found on PATH, or the JavaScript engine (ripgrep turned off in settings, or found nowhere).
 */
export const searchEngineInfoSchema = z.discriminatedUnion('engine', [
  z.object({ engine: z.literal('ripgrep'), source: z.enum(['bundled', 'path']), path: z.string() }),
  z.object({ engine: z.literal('js'), reason: z.enum(['off', 'missing']) }),
]);
export type SearchEngineInfo = z.infer<typeof searchEngineInfoSchema>;

export const confinementInfoSchema = z.object({
  mode: confinementModeSchema,
  /** search_in_code's engine (ripgrep runs under the ripgrep rules above). */
  search: searchEngineInfoSchema,
  processes: z.array(processRulesSummarySchema),
  /** Absolute folders no process sees (the user's home, Familiar's data), but for what is put back below. */
  hiddenTrees: z.array(z.string()),
  /** Toolchains put back read-only inside the home (absolute; those missing on this machine included). */
  toolchains: z.array(z.string()),
  /** The user's own additions (settings: commands.readableInHome) that hold, as absolute paths. */
  readableInHome: z.array(z.string()),
  /** Entries of commands.readableInHome left out: they lead to a secret, Familiar's data or the persona folder, or into the workspace. */
  leftOut: z.array(z.string()),
  /** The user's home, to show the paths above as ~/… */
  userHome: z.string(),
});
export type ConfinementInfo = z.infer<typeof confinementInfoSchema>;

export const appCalls = {
  'app.info': defineCall(z.object({}).strict(), appInfoSchema),
  /** How commands, git, ripgrep and language servers are confined, for Settings (Commands, Safety). */
  'app.confinement': defineCall(z.object({}).strict(), confinementInfoSchema),
};

/** What the desktop app's menu asks the page to do (the page owns these actions and their shortcuts). */
export const appCommands = [
  'new-conversation',
  'open-folder',
  'settings',
  'toggle-files',
  'toggle-conversations',
] as const;
export type AppCommand = (typeof appCommands)[number];

export const appEvents = {
  /** A menu item was chosen (desktop app only). */
  'app.command': z.object({ command: z.enum(appCommands) }),
  /** Main announces it is going away (window closing, server stopping) so the page can say so. */
  'app.shutdown': z.object({ reason: z.string() }),
};
