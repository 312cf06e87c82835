import { z } from 'zod';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { WebSearchSettings } from '../../../shared/settings';

export type SearchServiceKind = 'searxng' | 'brave' | 'tavily';

/** The search service web_search queries (settings web.search, its key from the secret store). */
export interface SearchService {
  readonly kind: SearchServiceKind;
  /** Where queries go: the user's SearXNG, or the API's own address (a scripted server in tests). */
  readonly endpoint: string;
  /** Brave's and Tavily's key; never logged, never in an output. */
  readonly apiKey?: string;
  /**
   * The endpoint's host may resolve to this computer or the local network: the user named their
   * SearXNG exactly (a SearXNG on localhost is common). Brave and Tavily are public services.
   */
  readonly local: boolean;
}

export const BRAVE_ENDPOINT = 'https://api.search.brave.com/res/v1/web/search';
export const TAVILY_ENDPOINT = 'https://api.tavily.com/search';

export const searchServiceLabels: Readonly<Record<SearchServiceKind, string>> = {
  searxng: 'SearXNG',
  brave: 'Brave Search',
  tavily: 'Tavily',
};

/**
 * The service the settings name, or undefined when none is usable: none chosen, SearXNG without
 * its URL, Brave or Tavily without a saved key. web_search is offered only when this is defined.
 */
export function searchServiceFrom(
  settings: WebSearchSettings,
  keyOf: (kind: 'brave' | 'tavily') => string | undefined,
): SearchService | undefined {
  switch (settings.service) {
    case 'none':
      return undefined;
    case 'searxng':
      return settings.searxngUrl === null ? undefined : { kind: 'searxng', endpoint: settings.searxngUrl, local: true };
    case 'brave':
    case 'tavily': {
      const apiKey = keyOf(settings.service);
      if (apiKey === undefined || apiKey === '') return undefined;
      const endpoint = settings.service === 'brave' ? BRAVE_ENDPOINT : TAVILY_ENDPOINT;
      return { kind: settings.service, endpoint, apiKey, local: false };
    }
  }
}

export type SearchTimeRange = 'day' | 'week' | 'month' | 'year';

export interface SearchQuery {
  readonly query: string;
  readonly maxResults: number;
  /** Results from this site only (a host name). */
  readonly site?: string;
  readonly timeRange?: SearchTimeRange;
}

export interface SearchRequest {
  readonly url: URL;
  readonly method: 'GET' | 'POST';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

const braveFreshness: Readonly<Record<SearchTimeRange, string>> = { day: 'pd', week: 'pw', month: 'pm', year: 'py' };
/** Brave's most results per request. */
const BRAVE_MAX_COUNT = 20;

/** SearXNG's JSON API is `<instance>/search`: the instance may live under a path (https://host/searx/). */
function searxngSearchUrl(base: string): URL {
  const url = new URL(base);
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/search')) url.pathname = `${url.pathname.replace(/\/+$/, '')}/search`;
  return url;
}

/** The one HTTP request a query is, in the service's own protocol. */
export function searchRequest(service: SearchService, query: SearchQuery): SearchRequest {
  const json = { accept: 'application/json' };
  switch (service.kind) {
    case 'searxng': {
      const url = searxngSearchUrl(service.endpoint);
      url.searchParams.set('q', query.site === undefined ? query.query : `site:${query.site} ${query.query}`);
      url.searchParams.set('format', 'json');
      if (query.timeRange !== undefined) url.searchParams.set('time_range', query.timeRange);
      return { url, method: 'GET', headers: json };
    }
    case 'brave': {
      const url = new URL(service.endpoint);
      url.searchParams.set('q', query.site === undefined ? query.query : `site:${query.site} ${query.query}`);
      url.searchParams.set('count', String(Math.min(query.maxResults, BRAVE_MAX_COUNT)));
      if (query.timeRange !== undefined) url.searchParams.set('freshness', braveFreshness[query.timeRange]);
      return { url, method: 'GET', headers: { ...json, 'x-subscription-token': service.apiKey ?? '' } };
    }
    case 'tavily':
      return {
        url: new URL(service.endpoint),
        method: 'POST',
        headers: { ...json, 'content-type': 'application/json', authorization: `Bearer ${service.apiKey ?? ''}` },
        body: JSON.stringify({
          query: query.query,
          max_results: query.maxResults,
          ...(query.site === undefined ? {} : { include_domains: [query.site] }),
          ...(query.timeRange === undefined ? {} : { time_range: query.timeRange }),
        }),
      };
  }
}

export interface SearchHit {
  readonly title: string;
  readonly url: string;
  readonly snippet: string;
}

const MAX_TITLE_CHARS = 300;
const MAX_SNIPPET_CHARS = 600;

/** Services mark the words matched with HTML (Brave's <strong>); the model gets plain text. */
function plain(text: string, max: number): string {
  const flat = text
    .replace(/<[^>]{0,200}>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const hitSchema = z.looseObject({
  title: z.string().optional(),
  url: z.string(),
  content: z.string().nullish(),
  description: z.string().nullish(),
});
const listSchema = z.array(z.unknown());
const searxngSchema = z.looseObject({ results: listSchema });
const braveSchema = z.looseObject({ web: z.looseObject({ results: listSchema }).optional() });
const tavilySchema = z.looseObject({ results: listSchema });

/** The service's JSON as results, at most `max`; entries without an http(s) URL are left out. */
export function searchHits(service: SearchService, body: unknown, max: number): Result<SearchHit[]> {
  const list =
    service.kind === 'brave'
      ? braveSchema.safeParse(body).data?.web?.results
      : (service.kind === 'searxng' ? searxngSchema : tavilySchema).safeParse(body).data?.results;
  if (list === undefined) {
    const hasBrave = service.kind === 'brave' && braveSchema.safeParse(body).success;
    // Brave leaves `web` out when nothing matched; any other shape is not the service's answer.
    if (hasBrave) return ok([]);
    return err(
      'search_failed',
      `${searchServiceLabels[service.kind]} answered with JSON that is not a search result.`,
      {
        service: service.kind,
      },
    );
  }
  const hits: SearchHit[] = [];
  for (const entry of list) {
    const parsed = hitSchema.safeParse(entry);
    if (!parsed.success || !/^https?:\/\//i.test(parsed.data.url)) continue;
    const { title, url, content, description } = parsed.data;
    hits.push({
      title: plain(title ?? url, MAX_TITLE_CHARS),
      url,
      snippet: plain(content ?? description ?? '', MAX_SNIPPET_CHARS),
    });
    if (hits.length >= max) break;
  }
  return ok(hits);
}
