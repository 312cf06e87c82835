import type { OnHeadersReceivedListenerDetails, HeadersReceivedResponse, WebRequest } from 'electron';
import { contentSecurityPolicyHeader } from '../../../shared/content-security-policy';

/**
 * The desktop window's header: the page's policy (shared/content-security-policy.ts, the same as
 * renderer/index.html's meta tag and browser mode's header) plus frame-ancestors. The meta tag is the
 * layer that always holds: whether webRequest sees file:// responses has varied between Electron
 * versions. The header adds the same policy wherever it does (the dev server always). Both apply,
 * so it can only narrow.
 */
export const contentSecurityPolicy = contentSecurityPolicyHeader();

/** Adds the policy to every document response (frames); other resources are governed by their document. */
export function withContentSecurityPolicy(
  details: Pick<OnHeadersReceivedListenerDetails, 'resourceType' | 'responseHeaders'>,
): HeadersReceivedResponse {
  if (details.resourceType !== 'mainFrame' && details.resourceType !== 'subFrame') return {};
  const headers: Record<string, string[]> = { ...details.responseHeaders };
  // Keep any policy the response already had: two policies both apply, so adding never loosens.
  const existing = Object.keys(headers).find((name) => name.toLowerCase() === 'content-security-policy');
  const key = existing ?? 'Content-Security-Policy';
  headers[key] = [...(headers[key] ?? []), contentSecurityPolicy];
  return { responseHeaders: headers };
}

export function installContentSecurityPolicy(webRequest: Pick<WebRequest, 'onHeadersReceived'>): void {
  webRequest.onHeadersReceived((details, callback) => callback(withContentSecurityPolicy(details)));
}
