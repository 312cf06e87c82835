import type { AllowedHost } from '../../../shared/settings';

/** A host and port as one name: `registry.npmjs.org:443`, `[::1]:8080`. */
export const hostKey = (host: string, port: number): string => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * The settings entry that allows `host:port` in this workspace, if one does (settings:
 * commands.allowedHosts). Exact names only: allowing a host allows no other host, no subdomain,
 * and, when the entry names a port, no other port.
 */
export function allowedHostEntry(
  entries: readonly AllowedHost[],
  target: { readonly host: string; readonly port: number },
  workspaceRoot: string,
): AllowedHost | undefined {
  return entries.find(
    (entry) =>
      entry.host === target.host &&
      (entry.port === undefined || entry.port === target.port) &&
      (entry.workspace === null || entry.workspace === workspaceRoot),
  );
}
