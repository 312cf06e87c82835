import type { OnHeadersReceivedListenerDetails, HeadersReceivedResponse, WebRequest } from 'electron';

/**
 * The page's policy, as renderer/index.html's meta tag declares it (a test keeps the two equal),
 * plus frame-ancestors, which only a header can carry. The meta tag is the layer that always holds:
 * whether webRequest sees file:// responses has varied between Electron versions. The header adds
 * the same policy wherever it does (the dev server always). Both apply, so it can only narrow.
 */
export const contentSecurityPolicyDirectives = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "img-src 'self' data: blob:",
  // No ws: the desktop page talks to main over IPC only. Browser mode's bridge is same-origin
  // (ws:// to the page's own host and port), which 'self' covers (CSP Level 3).
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
] as const;

export const headerOnlyDirectives = ["frame-ancestors 'none'"] as const;

export const contentSecurityPolicy = [...contentSecurityPolicyDirectives, ...headerOnlyDirectives].join('; ');

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
