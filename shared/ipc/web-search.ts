import { z } from 'zod';
import { webSearchSettingsSchema } from '../settings';
import { defineCall } from './define';
import { keyStorageSchema, saveWithKeyInput } from './providers';

/**
 * web_search's service (Settings → Web → Search). The choice and the SearXNG URL live in settings
 * (web.search); Brave's and Tavily's keys go in here, write-only, into the secret store that keeps
 * provider keys, and never come back: the status only says whether one is saved.
 */
export const webSearchStatusSchema = z.object({
  search: webSearchSettingsSchema,
  /** A key is saved for Brave Search / Tavily. */
  hasKey: z.object({ brave: z.boolean(), tavily: z.boolean() }),
  /** web_search is offered now: a service is chosen and has its URL or key. */
  available: z.boolean(),
  keyStorage: keyStorageSchema,
});
export type WebSearchStatus = z.infer<typeof webSearchStatusSchema>;

export const webSearchCalls = {
  'webSearch.status': defineCall(z.object({}).strict(), webSearchStatusSchema),
  /**
   * Saves the service choice (and SearXNG URL) in settings; `apiKey` saves the chosen service's key
   * (Brave or Tavily), null deletes it, absent keeps the saved one.
   */
  'webSearch.save': defineCall(saveWithKeyInput({ search: webSearchSettingsSchema }), webSearchStatusSchema),
};
