import { createLanguageModel } from '../domain/providers/language-model';
import type { ProviderFetch } from '../domain/providers/language-model';
import { err, ok } from '../../shared/result';
import { realFolder } from '../platform/disk/chosen-folder';
import { apiKeySecret } from '../platform/secrets/secret-store';
import type { FamiliarPaths } from '../platform/storage/paths';
import type { WorkspaceSandbox } from '../platform/disk/workspace-sandbox';
import type { ToolEnvironment } from '../tools/kit/tool-environment';
import { createMcpHost } from './mcp-host';
import type { McpHost, McpHostOptions } from './mcp-host';

/** What the host needs of the core: McpHostOptions' stores, and how to reach the workspace and the dialog. */
export interface UserMcpHostDeps extends Pick<
  McpHostOptions,
  'settings' | 'secrets' | 'reveal' | 'events' | 'logger' | 'version'
> {
  readonly paths: FamiliarPaths;
  readonly fetch?: ProviderFetch | undefined;
  /** A person answers approvals (not MCP mode's refuse or approve-all): only then are servers started. */
  readonly interactive: boolean;
  /** A tool call's environment as one made now would be (the open workspace). */
  readonly toolEnvironmentNow: () => Promise<ToolEnvironment>;
  readonly workspacePath: () => string;
  readonly workspaceSandbox: () => Promise<WorkspaceSandbox>;
  /** The one approval dialog (the assistant's broker, made after the host). */
  readonly ask: NonNullable<McpHostOptions['ask']>;
}

/**
 * The user's MCP servers (issue 29), hosted for the core: confined to the open workspace like a
 * language server, their questions in the approval dialog, their sampling answered by the model
 * chosen in Settings, the workspace's .mcp.json read through the sandbox.
 */
export function hostUserMcpServers(deps: UserMcpHostDeps): McpHost {
  const { paths, settings, secrets } = deps;
  return createMcpHost({
    settings,
    secrets,
    reveal: deps.reveal,
    events: deps.events,
    logger: deps.logger,
    version: deps.version,
    home: paths.home,
    folders: async () => {
      const env = await deps.toolEnvironmentNow();
      return {
        workspaceRoot: env.workspaceRoot,
        personaDir: env.personaDir,
        familiarHome: await realFolder(paths.home),
        memoryOn: false,
        readableInHome: settings.get().commands.readableInHome,
      };
    },
    workspaceRoot: deps.workspacePath,
    readWorkspaceFile: async (name) => {
      const sandbox = await deps.workspaceSandbox();
      const at = await sandbox.resolve(name, 'read');
      if (!at.ok) return undefined;
      const read = await sandbox.readWholeFile(at.value, 1_000_000, () =>
        err('file_too_large', `${name} is over 1 MB`),
      );
      return read.ok ? read.value.bytes.toString('utf8') : undefined;
    },
    // Only where a person answers approvals: MCP mode serves Familiar's tools, it hosts no servers.
    start: deps.interactive,
    // A server's questions go to the one approval dialog.
    ask: deps.ask,
    sample: async (params, maxTokens, signal) => {
      const provider = settings.get().provider;
      if (provider === null) return err('provider_not_configured', 'Choose a model provider in Settings first.');
      const model = await createLanguageModel(provider, secrets.get(apiKeySecret(provider.kind)), deps.fetch);
      if (!model.ok) return model;
      try {
        // The AI SDK loads with the first sampling or turn, not with every start.
        const { runSampling } = await import('../agent/mcp-sampling');
        return ok(await runSampling(model.value, params, maxTokens, signal));
      } catch (error) {
        return err('provider_error', error instanceof Error ? error.message : String(error));
      }
    },
  });
}
