import type { AllowedHost } from '../../shared/settings';
import { createEmbedder } from '../domain/providers/embedding-model';
import type { ProviderFetch } from '../domain/providers/language-model';
import { languageServerRows } from '../domain/lsp/language-server-handlers';
import { catalogWith } from '../domain/lsp/server-catalog';
import type { TransferService } from '../domain/transfers/transfer-service';
import type { EventHub } from '../platform/ipc/event-hub';
import type { Logger } from '../platform/logging/logger';
import type { FsWorkerPool } from '../platform/search-engines/fs-worker-pool';
import { apiKeySecret } from '../platform/secrets/secret-store';
import type { SecretStore } from '../platform/secrets/secret-store';
import type { FamiliarPaths } from '../platform/storage/paths';
import type { SettingsStore } from '../platform/storage/settings-store';
import { createToolServices } from '../tools/kit/tool-services';
import type { ToolServices } from '../tools/kit/tool-services';
import type { ToolLimits } from '../tools/kit/tool-limits';
import { fetchTransport } from '../tools/web/web-transport';
import { configuredSearchService } from './web-search-handlers';

/** What the core hands settingsToolServices: its stores and the entry's options (CoreOptions). */
export interface SettingsToolServicesDeps {
  readonly paths: FamiliarPaths;
  readonly settings: SettingsStore;
  readonly secrets: SecretStore;
  readonly events: EventHub;
  readonly transfers: TransferService;
  readonly logger: Logger;
  readonly resourcesDir?: string | undefined;
  readonly warmSearchThreads?: boolean | undefined;
  readonly collectAfterStart?: boolean | undefined;
  readonly workers?: FsWorkerPool | undefined;
  readonly fetch?: ProviderFetch | undefined;
  readonly userSkillsDir?: string | undefined;
  readonly toolLimits?: Partial<ToolLimits> | undefined;
}

/**
 * The tools' services (tools/kit/tool-services.ts) as the user's settings and secret store set them
 * up: each reads the settings when it is used, so a change applies from the next call; the answers
 * a person gives ("always" for a host) are saved there. Their events go to the core's hub.
 */
export function settingsToolServices(deps: SettingsToolServicesDeps): ToolServices {
  const { paths, settings, secrets, events, transfers } = deps;
  const services = createToolServices({
    paths,
    resourcesDir: deps.resourcesDir,
    warmSearchThreads: deps.warmSearchThreads ?? true,
    collectAfterStart: deps.collectAfterStart ?? false,
    ...(deps.workers === undefined ? {} : { workers: deps.workers }),
    transfers,
    sandboxSettings: () => {
      const { hardLinks, backups } = settings.get().safety;
      return {
        hardLinks,
        backups: {
          maxItems: backups.maxItems,
          maxBytes: backups.maxSizeMB * 1024 * 1024,
          maxAgeDays: backups.maxAgeDays,
        },
      };
    },
    passEnvironment: () => settings.get().commands.passEnvironment,
    // The hosts a confined command reaches without asking; an "always in this workspace" answer adds one.
    allowedHosts: {
      list: () => settings.get().commands.allowedHosts,
      remember: async (entry) => {
        const { allowedHosts } = settings.get().commands;
        const same = (kept: AllowedHost) =>
          kept.host === entry.host && kept.port === entry.port && kept.workspace === entry.workspace;
        if (allowedHosts.some(same)) return;
        await settings.update({ commands: { allowedHosts: [...allowedHosts, entry] } });
      },
    },
    readableInHome: () => settings.get().commands.readableInHome,
    // web_fetch: the hosts fetched without asking (an "always" answer adds one), and in the desktop
    // app Chromium's network stack (system proxy, OS certificates) instead of Node's pinned http(s).
    web: {
      allowedHosts: () => settings.get().web.allowedHosts,
      rememberHost: async (entry) => {
        const { allowedHosts } = settings.get().web;
        if (allowedHosts.includes(entry)) return;
        await settings.update({ web: { allowedHosts: [...allowedHosts, entry] } });
      },
      ...(deps.fetch === undefined ? {} : { transport: fetchTransport(deps.fetch) }),
      // web_search: the service in settings web.search, Brave's or Tavily's key from the secret store.
      searchService: () => configuredSearchService(settings, secrets),
    },
    diagnosticsAfterEdits: () => settings.get().code.diagnosticsAfterEdits,
    searchIndex: () => settings.get().search.index,
    lsp: {
      // The user's servers (settings: code.servers) first, then the built-in ones; read on each use.
      servers: () => catalogWith(settings.get().code.servers),
      log: (message) => deps.logger.info(`lsp: ${message}`),
      onChange: () => events.emit('languageServers.changed', { servers: languageServerRows(services.code.lsp) }),
      // The tree's and the header's problem counts.
      onProblems: ({ root, ...file }) => events.emit('problems.changed', { root, files: [file] }),
    },
    // file_semantic_search: hybrid ranking when the settings name an embedding model on the provider.
    embedder: () => {
      const { provider, search } = settings.get();
      if (provider === null || search.embeddingModel === null) return undefined;
      return createEmbedder(provider, search.embeddingModel, secrets.get(apiKeySecret(provider.kind)), deps.fetch);
    },
    onIndexStatus: (status) => events.emit('workspace.searchIndex', status),
    skillsDisabled: () => settings.get().skills.disabled,
    ...(deps.userSkillsDir === undefined ? {} : { userSkillsDir: deps.userSkillsDir }),
    ...(deps.toolLimits === undefined ? {} : { limits: deps.toolLimits }),
  });
  return services;
}
