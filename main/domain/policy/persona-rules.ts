import type { Policy } from '../../../shared/policy';
import { changesFile } from './access';
import type { ToolAccess } from './access';
import { isMemoryPath, normalizePolicyPath } from './decide';

/**
 * The persona and memory rules, written once. Tools, the tool-call pipeline, the persona service
 * and the UI handlers ask these functions instead of comparing names themselves.
 */
export const personaFileNames = ['SOUL.md', 'USER.md', 'MEMORY.md', 'HEARTBEAT.md'] as const;
export type PersonaFileName = (typeof personaFileNames)[number];
/** Dated notes (memory/YYYY-MM-DD.md) live here, beside the three files. */
export const DAILY_NOTES_DIR = 'memory';

/** The persona file a workspace-relative path names, if any (case-insensitive, as the policy matches). */
export function personaFileOf(path: string): PersonaFileName | undefined {
  const normalized = normalizePolicyPath(path).toLowerCase();
  return personaFileNames.find((name) => name.toLowerCase() === normalized);
}

/**
 * USER.md and MEMORY.md are memory; SOUL.md is the persona and HEARTBEAT.md the heartbeat's prompt,
 * both staying whatever the switch says.
 */
export const isMemoryFile = (name: PersonaFileName): boolean => name === 'USER.md' || name === 'MEMORY.md';

/** HEARTBEAT.md is the heartbeat's prompt (main/core/schedules), not part of every system prompt. */
export const inSystemPrompt = (name: PersonaFileName): boolean => name !== 'HEARTBEAT.md';

/**
 * What the memory switch means for one conversation: on only when the user switched it on and the
 * conversation is not incognito (an incognito conversation never reads or writes memory).
 */
export const memoryOn = (switchOn: boolean, incognito: boolean): boolean => switchOn && !incognito;

/** While memory is off, memory paths are hidden from the assistant: listings, searches and reads skip them. */
export const concealedWhileMemoryOff = (policy: Policy, memoryIsOn: boolean, path: string): boolean =>
  !memoryIsOn && isMemoryPath(policy, path);

/** The user edits memory files in the UI only while memory is on; SOUL.md is always theirs to edit. */
export const frozenForUser = (file: PersonaFileName, memoryIsOn: boolean): boolean => isMemoryFile(file) && !memoryIsOn;

/**
 * The persona guarantee: every change to SOUL.md, and to HEARTBEAT.md (the prompt Familiar runs by
 * itself on the heartbeat), is asked about. Such a call can never be allowed "for the rest of the
 * conversation", and an earlier allowance never covers these files.
 */
export const alwaysAsked = (access: ToolAccess): boolean => {
  if (!changesFile(access)) return false;
  const file = personaFileOf(access.path);
  return file === 'SOUL.md' || file === 'HEARTBEAT.md';
};

/**
 * Memory is normally free to change, but the dated notes (memory/**) and the persona files are
 * guarded against prompt injection: a change proposed after the model read outside content waits
 * for the user (see provenance.ts).
 */
export const guardedAgainstInjection = (policy: Policy, access: ToolAccess): boolean =>
  changesFile(access) && (personaFileOf(access.path) !== undefined || isMemoryPath(policy, access.path));
