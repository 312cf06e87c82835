import type { McpServerConfig } from '../../../shared/mcp-servers';

/** Whether a server's settings differ at all: any change but the one below restarts it. */
export const sameConfig = (a: McpServerConfig, b: McpServerConfig) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The new config only adds hosts to a stdio server's grants (an "always" answer, the Settings
 * field): the running process reads its grants per request, so it need not restart. A host taken
 * away restarts it, which cuts the connections it holds.
 */
export const onlyHostsAdded = (next: McpServerConfig, running: McpServerConfig): boolean => {
  if (next.transport !== 'stdio' || running.transport !== 'stdio') return false;
  const held = new Set(running.grants.hosts);
  return (
    running.grants.hosts.every((host) => next.grants.hosts.includes(host)) &&
    next.grants.hosts.some((host) => !held.has(host)) &&
    sameConfig(
      { ...next, grants: { ...next.grants, hosts: [] } },
      { ...running, grants: { ...running.grants, hosts: [] } },
    )
  );
};
