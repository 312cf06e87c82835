import type { CallName, EventName } from './contract';

/** Electron IPC channel names, derived from contract names so no channel is written by hand. */
export const callChannel = (name: CallName): string => `familiar:call:${name}`;
export const eventChannel = (name: EventName): string => `familiar:event:${name}`;
