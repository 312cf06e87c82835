/**
 * The page's one Content-Security-Policy, for the desktop window and browser mode alike.
 * renderer/index.html's meta tag declares `pageDirectives` word for word (a test keeps the two
 * equal); each front door sends the same policy as a header, adding what only a header can carry.
 */
export const pageDirectives = [
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

/** Ignored in a meta tag, so only the header carries it. */
export const headerOnlyDirectives = ["frame-ancestors 'none'"] as const;

/**
 * The header's value. `connectSources` widens connect-src for a front door that names its own
 * endpoints besides 'self' (browser mode lists its loopback WebSocket origins explicitly).
 */
export function contentSecurityPolicyHeader(connectSources: readonly string[] = []): string {
  return [...pageDirectives, ...headerOnlyDirectives]
    .map((directive) =>
      directive.startsWith('connect-src ') && connectSources.length > 0
        ? [directive, ...connectSources].join(' ')
        : directive,
    )
    .join('; ');
}
