import type { ResolvedAddress } from '../../platform/processes/network-proxy';
import type { SearchService } from './search-service';
import type { WebTransport } from './web-transport';

/** What web_fetch is given (ToolEnvironment.web): built once by the tool services. */
export interface WebAccess {
  /** Settings web.allowedHosts, read at each fetch: `host` or `host:port` entries. */
  allowedHosts(): readonly string[];
  /** Keeps an "always" answer (`host:port`) in settings web.allowedHosts. */
  rememberHost(entry: string): Promise<void>;
  /** How requests leave: Node's http(s) pinned to the checked address, or the desktop's net.fetch. */
  readonly transport: WebTransport;
  /**
   * web_search's service, read at each call and each tool list (settings web.search and its key):
   * undefined when none is configured, and then web_search is not offered.
   */
  searchService(): SearchService | undefined;
  /** Name resolution; absent: the system's. Tests inject one to stand for a hostile DNS answer. */
  readonly lookup?: (host: string) => Promise<readonly ResolvedAddress[]>;
}
