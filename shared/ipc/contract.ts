import type { z } from 'zod';
import type { Result } from '../result';
import { appCalls, appEvents } from './app';
import { approvalCalls, approvalEvents } from './approvals';
import { assistantCalls, assistantEvents } from './assistant';
import { historyCalls, historyEvents } from './history';
import { languageServerCalls, languageServerEvents } from './language-servers';
import { mcpServerCalls, mcpServerEvents } from './mcp-servers';
import { chatCalls, chatEvents } from './chat';
import { conversationsCalls, conversationsEvents } from './conversations';
import { problemsEvents } from './problems';
import { providersCalls } from './providers';
import { schedulesCalls, schedulesEvents } from './schedules';
import { settingsCalls, settingsEvents } from './settings';
import { skillCalls } from './skills';
import { transferCalls, transferEvents } from './transfers';
import { webSearchCalls } from './web-search';
import { workspaceCalls, workspaceEvents } from './workspace';

/**
 * The single source of truth for everything that crosses between renderer and main.
 * Each concern contributes its calls and events from its own module; this file only merges them.
 */
export const calls = {
  ...appCalls,
  ...settingsCalls,
  ...assistantCalls,
  ...approvalCalls,
  ...historyCalls,
  ...conversationsCalls,
  ...chatCalls,
  ...providersCalls,
  ...workspaceCalls,
  ...transferCalls,
  ...languageServerCalls,
  ...skillCalls,
  ...schedulesCalls,
  ...mcpServerCalls,
  ...webSearchCalls,
};

export const events = {
  ...appEvents,
  ...settingsEvents,
  ...assistantEvents,
  ...approvalEvents,
  ...historyEvents,
  ...conversationsEvents,
  ...chatEvents,
  ...workspaceEvents,
  ...transferEvents,
  ...problemsEvents,
  ...languageServerEvents,
  ...schedulesEvents,
  ...mcpServerEvents,
};

export type Calls = typeof calls;
export type Events = typeof events;
export type CallName = keyof Calls;
export type EventName = keyof Events;
export type CallInput<N extends CallName> = z.input<Calls[N]['input']>;
/** What a handler receives: the input after the schema applied its defaults. */
export type ParsedCallInput<N extends CallName> = z.output<Calls[N]['input']>;
export type CallOutput<N extends CallName> = z.output<Calls[N]['output']>;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export const callNames = Object.keys(calls) as CallName[];
export const eventNames = Object.keys(events) as EventName[];

export const isCallName = (name: unknown): name is CallName => typeof name === 'string' && Object.hasOwn(calls, name);
export const isEventName = (name: unknown): name is EventName =>
  typeof name === 'string' && Object.hasOwn(events, name);

/** The one object the page talks to, whether it came from the preload or the browser-mode bridge. */
export interface FamiliarApi {
  invoke<N extends CallName>(name: N, input: CallInput<N>): Promise<Result<CallOutput<N>>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}
