import type { WebSearchStatus } from '../../shared/ipc/web-search';
import { err, ok } from '../../shared/result';
import type { Handlers } from '../platform/ipc/dispatcher';
import { searchKeySecret } from '../platform/secrets/secret-store';
import type { SecretStore } from '../platform/secrets/secret-store';
import type { SettingsStore } from '../platform/storage/settings-store';
import { searchServiceFrom } from '../tools/web/search-service';
import type { SearchService } from '../tools/web/search-service';

export type WebSearchHandlers = Pick<Handlers, 'webSearch.status' | 'webSearch.save'>;

/** web_search's service as the settings and the secret store say now: undefined, and the tool is not offered. */
export const configuredSearchService = (settings: SettingsStore, secrets: SecretStore): SearchService | undefined =>
  searchServiceFrom(settings.get().web.search, (service) => secrets.get(searchKeySecret(service)));

function status(settings: SettingsStore, secrets: SecretStore): WebSearchStatus {
  return {
    search: settings.get().web.search,
    hasKey: { brave: secrets.has(searchKeySecret('brave')), tavily: secrets.has(searchKeySecret('tavily')) },
    available: configuredSearchService(settings, secrets) !== undefined,
    keyStorage: secrets.keyStorage,
  };
}

/** `onKeyChanged`: a key saved or deleted may bring or take away web_search (settings changes say so themselves). */
export function createWebSearchHandlers(
  settings: SettingsStore,
  secrets: SecretStore,
  onKeyChanged: () => void,
): WebSearchHandlers {
  return {
    'webSearch.status': () => ok(status(settings, secrets)),
    'webSearch.save': async ({ search, apiKey }) => {
      if (search.service === 'searxng' && search.searxngUrl === null) {
        return err('invalid_payload', 'SearXNG needs the URL of its instance.', { field: 'search.searxngUrl' });
      }
      if (apiKey !== undefined) {
        if (search.service !== 'brave' && search.service !== 'tavily') {
          return err('invalid_payload', 'Only Brave Search and Tavily take an API key.', { field: 'apiKey' });
        }
        await secrets.set(searchKeySecret(search.service), apiKey);
      }
      await settings.update({ web: { search } });
      if (apiKey !== undefined) onKeyChanged();
      return ok(status(settings, secrets));
    },
  };
}
