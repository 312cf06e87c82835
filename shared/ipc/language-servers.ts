import { z } from 'zod';
import { defineCall } from './define';

/** One language server as the settings panel shows it: every server of the catalog, started or not. */
export const languageServerRowSchema = z.object({
  id: z.string(),
  /** not_installed: its program is not there; stopped: not started in this workspace (it starts on first use). */
  state: z.enum(['stopped', 'starting', 'running', 'crashed', 'not_installed']),
  /** Added by the user in settings (code.servers). */
  userAdded: z.boolean(),
  pid: z.number().int().optional(),
  restarts: z.number().int().min(0),
  /** The last lines the server wrote to stderr, newest last (capped). */
  log: z.array(z.string()).max(40),
});
export type LanguageServerRow = z.infer<typeof languageServerRowSchema>;

export const languageServersSchema = z.object({ servers: z.array(languageServerRowSchema) });

export const languageServerCalls = {
  'languageServers.list': defineCall(z.object({}).strict(), languageServersSchema),
  /** Stops the server if it runs and starts it again now, in the open workspace; answers the new list. */
  'languageServers.restart': defineCall(z.object({ id: z.string().min(1).max(60) }).strict(), languageServersSchema),
};

export const languageServerEvents = {
  /** A server started, stopped, crashed or restarted. */
  'languageServers.changed': languageServersSchema,
};
