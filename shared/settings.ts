import { z } from 'zod';
import { defaultHeartbeat, heartbeatSettingsSchema, scheduledTasksSchema, timeOfDaySchema } from './schedule-settings';
import {
  defaultMcpSettings,
  mcpAlwaysAllowedSchema,
  mcpSamplingMaxTokensSchema,
  mcpServersListSchema,
  mcpSettingsSchema,
  mcpWorkspaceDecisionsSchema,
} from './mcp-servers';

/** Which client talks to the model. Ollama and any OpenAI-compatible server share one protocol. */
export const providerKinds = ['openai', 'anthropic', 'ollama', 'openai-compatible'] as const;
export const providerKindSchema = z.enum(providerKinds);
export type ProviderKind = z.infer<typeof providerKindSchema>;

export const providerSettingsSchema = z.object({
  kind: providerKindSchema,
  model: z.string().trim().min(1).max(200),
  /** Required for openai-compatible; optional override for the others (proxies, Azure-style gateways). */
  baseUrl: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional(),
  temperature: z.number().min(0).max(2).optional(),
  /** Model calls per user message, tool round-trips included. */
  maxSteps: z.number().int().min(1).max(100).default(20),
  /** The model's context window in tokens; the loop trims the conversation to fit. */
  contextWindow: z.number().int().min(1024).max(10_000_000).default(128_000),
  /**
   * "Supports images": whether the model is sent the pictures attached to messages. Unset, known
   * models decide by name and OpenAI-compatible servers and Ollama say no (shared/chat-images.ts).
   */
  vision: z.boolean().optional(),
});
export type ProviderSettings = z.infer<typeof providerSettingsSchema>;

/** How many backups (copies kept before each overwrite or edit) are kept, newest first. */
const backupLimitsSchema = z.object({
  maxItems: z.number().int().min(10).max(100_000),
  maxSizeMB: z.number().int().min(10).max(1_000_000),
  maxAgeDays: z.number().int().min(1).max(3650),
});
export const defaultBackupLimits = { maxItems: 1000, maxSizeMB: 1024, maxAgeDays: 30 } as const;

/** A file with more than one name may be a link to something outside the workspace: refused unless allowed. */
export const hardLinkPolicySchema = z.enum(['refuse', 'allow']);

export const themeSchema = z.enum(['system', 'light', 'dark']);
export const languageSchema = z.enum(['system', 'en', 'ru', 'zh']);

/** An environment variable's name as shells and Windows spell them (ProgramFiles(x86) has parentheses). */
export const envNameSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z_][A-Za-z0-9_()]*$/)
  .max(200);

/**
 * What a command must never see, however the user words an entry of commands.readableInHome (issue
 * 28): the secrets below the home, and Familiar's own data where each platform keeps it by default
 * (main also refuses the data folder it actually uses, and the persona folder, wherever they are).
 */
export const homeSecretEntries = ['.ssh', '.aws', '.gnupg', '.config/gcloud', '.kube', '.docker', '.netrc'] as const;
export const familiarHomeEntries = [
  '.familiar',
  '.config/Familiar',
  'Library/Application Support/Familiar',
  'AppData/Roaming/Familiar',
] as const;

/** The same entry, or one holds the other (case-insensitive: macOS and Windows homes ignore case). */
export const homeEntriesOverlap = (a: string, b: string): boolean => {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x === y || x.startsWith(`${y}/`) || y.startsWith(`${x}/`);
};

/**
 * A folder or file below the user's home that commands may read (settings: commands.readableInHome),
 * as `projects/shared` or `.config/myapp`: relative to the home, `/` between names, no `.` or `..`,
 * and neither a secret nor Familiar's data, nor a folder that holds one (a trailing `/` is dropped).
 */
export const homeEntrySchema = z
  .string()
  .trim()
  .transform((entry) => entry.replace(/\/+$/, ''))
  .pipe(
    z
      .string()
      .min(1)
      .max(500)
      .refine((entry) => !/^([/~]|[A-Za-z]:)/.test(entry), 'relative to your home folder (no leading / or ~)')
      .refine(
        (entry) => !/[\\\0]/.test(entry) && entry.split('/').every((name) => !['', '.', '..'].includes(name)),
        "names separated by / (no '.', '..' or backslash)",
      )
      .refine(
        (entry) => !homeSecretEntries.some((secret) => homeEntriesOverlap(entry, secret)),
        'holds secrets commands must not read',
      )
      .refine(
        (entry) => !familiarHomeEntries.some((data) => homeEntriesOverlap(entry, data)),
        "holds Familiar's own data",
      ),
  );

/** An embedding model's name as providers spell them (Ollama's have a tag: nomic-embed-text:latest). */
export const embeddingModelSchema = z.string().trim().min(1).max(200);

/**
 * A language server the user adds (settings: code.servers): started with the same clean environment
 * as run_command, in the workspace folder. It answers for files matching one of its patterns: an
 * extension (`.lua`) or a glob over the workspace-relative path (`*.lua` matches in any folder; with a
 * slash it is matched from the root). Added servers come before the built-in ones.
 */
export const userServerSchema = z.object({
  /** Shown in the language-server panel and in errors; one running server per id. */
  id: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, dot, dash, underscore')
    .max(60),
  /** A program name found on PATH, or an absolute path. */
  command: z.string().trim().min(1).max(1000),
  args: z.array(z.string().max(1000)).max(50).default([]),
  patterns: z.array(z.string().trim().min(1).max(200)).min(1).max(50),
  /** The LSP languageId of the files (lua, vue, elixir...). */
  languageId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.+-]+$/)
    .max(60),
});
export type UserServer = z.infer<typeof userServerSchema>;

/**
 * A host a confined command may reach without asking (settings: commands.allowedHosts): added by
 * the answer "always for this workspace" to a network question, or by the user in Settings.
 */
export const allowedHostSchema = z.object({
  /** A DNS name or an IP address, lower case, without brackets or port. */
  host: z
    .string()
    .trim()
    .toLowerCase()
    .regex(
      /^([a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*|[0-9a-f:.]+)$/,
      'a host name or an IP address',
    )
    .max(253),
  /** Absent: any port of the host. An answer to a question always names the port asked for. */
  port: z.number().int().min(1).max(65535).optional(),
  /** The workspace (real path) it is allowed in; null: every workspace. */
  workspace: z.string().min(1).nullable().default(null),
  /**
   * The host may resolve to an address on this computer or the local network (an intranet server).
   * Otherwise such an address is refused unless the host is that address itself (or localhost).
   */
  local: z.boolean().default(false),
});
export type AllowedHost = z.infer<typeof allowedHostSchema>;

/**
 * A host web_fetch reaches without asking, also when it resolves to this computer or the local
 * network (settings: web.allowedHosts): `host` (any port) or `host:port`, `[v6]:port` for an IPv6
 * address. Added by the answer "always" to a web question, or by the user in Settings → Web.
 */
export const webHostSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(([a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*)|\[[0-9a-f:.]+\]|[0-9a-f:.]*:[0-9a-f:.]*:[0-9a-f:.]*)(:\d{1,5})?$/,
    'host or host:port',
  )
  .max(260);

/** The search services web_search can query (issue 30); 'none': the tool is not offered. */
export const webSearchServices = ['none', 'searxng', 'brave', 'tavily'] as const;
export type WebSearchServiceName = (typeof webSearchServices)[number];

/**
 * web_search's service. Brave's and Tavily's keys are secrets, kept where provider keys are
 * (<home>/secrets.json, encrypted by the OS when it can), never here.
 */
export const webSearchSettingsSchema = z.object({
  service: z.enum(webSearchServices).default('none'),
  /** The user's SearXNG (its JSON API must be on: `search.formats: [json]`); its host counts as allowed. */
  searxngUrl: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .nullable()
    .default(null),
});
export type WebSearchSettings = z.infer<typeof webSearchSettingsSchema>;

/** A skill's name as the Agent Skills specification allows it (1–64 of a-z, 0-9 and single hyphens inside). */
export const skillNameSchema = z
  .string()
  .max(64)
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/);

const userServersSchema = z
  .array(userServerSchema)
  .max(20)
  .refine((servers) => new Set(servers.map((server) => server.id)).size === servers.length, 'server ids must differ');

/**
 * Everything the user can set, persisted as settings.json in the Familiar home. Secrets (API keys)
 * never live here: they are stored apart and never sent back to the page.
 */
export const settingsSchema = z.object({
  provider: providerSettingsSchema.nullable().default(null),
  memory: z.object({ enabled: z.boolean().default(true) }).default({ enabled: true }),
  /** The open workspace folder; null means the default workspace in the Familiar home. */
  workspace: z.object({ path: z.string().min(1).nullable().default(null) }).default({ path: null }),
  ui: z
    .object({ theme: themeSchema.default('system'), language: languageSchema.default('system') })
    .default({ theme: 'system', language: 'system' }),
  /** How many characters of each persona file reach the system prompt (the rest is cut with a marker). */
  prompt: z
    .object({
      perFile: z.number().int().min(1000).max(1_000_000).default(20_000),
      userFile: z.number().int().min(500).max(1_000_000).default(4_000),
      total: z.number().int().min(2000).max(3_000_000).default(60_000),
    })
    .default({ perFile: 20_000, userFile: 4_000, total: 60_000 }),
  /** Uploads into the workspace: size cap (MB, at most 20: one WebSocket frame) and whether non-text files are taken. */
  transfers: z
    .object({ maxUploadMB: z.number().int().min(1).max(20).default(10), allowNonText: z.boolean().default(false) })
    .default({ maxUploadMB: 10, allowNonText: false }),
  /** The sandbox's switches a user may want to change: hard-linked files, and how much backup is kept. */
  safety: z
    .object({
      hardLinks: hardLinkPolicySchema.default('refuse'),
      backups: backupLimitsSchema.default(defaultBackupLimits),
    })
    .default({ hardLinks: 'refuse', backups: defaultBackupLimits }),
  /**
   * Child processes (run_command, git) start from an allow-listed environment (PATH, HOME, locale...);
   * these names pass too, with the values the app was started with. Names only: values never live here.
   * readableInHome: what a confined command may read of the user's home beyond the toolchains.
   */
  /** ...and the hosts a confined command may reach without asking (every other host is asked about). */
  commands: z
    .object({
      passEnvironment: z.array(envNameSchema).max(100).default([]),
      allowedHosts: z.array(allowedHostSchema).max(500).default([]),
      readableInHome: z.array(homeEntrySchema).max(100).default([]),
      /**
       * A command that runs confined (issue 28) and can reach no host without asking (none allowed
       * for this workspace or this conversation) runs without the approval question. Off by
       * default; a command that would run unconfined always asks.
       */
      confinedOfflineWithoutAsking: z.boolean().default(false),
    })
    .default({ passEnvironment: [], allowedHosts: [], readableInHome: [], confinedOfflineWithoutAsking: false }),
  /** web_fetch: hosts fetched without asking, local addresses included (webHostSchema). */
  web: z
    .object({
      allowedHosts: z.array(webHostSchema).max(500).default([]),
      /** web_search's service (webSearchSettingsSchema). */
      search: webSearchSettingsSchema.default({ service: 'none', searxngUrl: null }),
    })
    .default({ allowedHosts: [], search: { service: 'none', searxngUrl: null } }),
  /**
   * Language servers: write_file / edit_file results carry the problems the change introduced;
   * servers the user added (before the built-in ones).
   */
  code: z
    .object({ diagnosticsAfterEdits: z.boolean().default(true), servers: userServersSchema.default([]) })
    .default({ diagnosticsAfterEdits: true, servers: [] }),
  /**
   * search_in_code answers from a trigram index of the workspace (built in the background) when on.
   * file_semantic_search: an embedding model on the configured provider (e.g. text-embedding-3-small,
   * nomic-embed-text) ranks by meaning as well as words; null ranks by words alone (BM25).
   */
  search: z
    .object({ index: z.boolean().default(true), embeddingModel: embeddingModelSchema.nullable().default(null) })
    .default({ index: true, embeddingModel: null }),
  /**
   * Agent Skills found in the workspace's .agents/skills, ~/.agents/skills and the Familiar home's
   * skills/: each is on unless its name is listed here (the switch in Settings → Skills).
   */
  skills: z.object({ disabled: z.array(skillNameSchema).max(500).default([]) }).default({ disabled: [] }),
  /** The heartbeat and the scheduled tasks (main/core/schedules). */
  schedules: z
    .object({ heartbeat: heartbeatSettingsSchema.default(defaultHeartbeat), tasks: scheduledTasksSchema.default([]) })
    .default({ heartbeat: defaultHeartbeat, tasks: [] }),
  /** The user's MCP servers (issue 29) and the tools they allowed always. */
  mcp: mcpSettingsSchema.default(defaultMcpSettings),
});
export type Settings = z.infer<typeof settingsSchema>;
export type BackupLimits = Settings['safety']['backups'];

/** A partial update: each section replaced or merged as given. */
export const settingsPatchSchema = z
  .object({
    provider: providerSettingsSchema.nullable(),
    memory: z.object({ enabled: z.boolean() }).partial(),
    workspace: z.object({ path: z.string().min(1).nullable() }).partial(),
    ui: z.object({ theme: themeSchema, language: languageSchema }).partial(),
    prompt: z
      .object({
        perFile: z.number().int().min(1000).max(1_000_000),
        userFile: z.number().int().min(500).max(1_000_000),
        total: z.number().int().min(2000).max(3_000_000),
      })
      .partial(),
    transfers: z.object({ maxUploadMB: z.number().int().min(1).max(20), allowNonText: z.boolean() }).partial(),
    safety: z
      .object({
        hardLinks: hardLinkPolicySchema,
        backups: backupLimitsSchema.partial(),
      })
      .partial(),
    commands: z
      .object({
        passEnvironment: z.array(envNameSchema).max(100),
        allowedHosts: z.array(allowedHostSchema).max(500),
        readableInHome: z.array(homeEntrySchema).max(100),
        confinedOfflineWithoutAsking: z.boolean(),
      })
      .partial(),
    web: z.object({ allowedHosts: z.array(webHostSchema).max(500), search: webSearchSettingsSchema }).partial(),
    code: z.object({ diagnosticsAfterEdits: z.boolean(), servers: userServersSchema }).partial(),
    search: z.object({ index: z.boolean(), embeddingModel: embeddingModelSchema.nullable() }).partial(),
    skills: z.object({ disabled: z.array(skillNameSchema).max(500) }).partial(),
    schedules: z
      .object({
        heartbeat: z
          .object({
            enabled: z.boolean(),
            intervalMinutes: z.number().int().min(5).max(1440),
            activeFrom: timeOfDaySchema,
            activeTo: timeOfDaySchema,
          })
          .partial(),
        tasks: scheduledTasksSchema,
      })
      .partial(),
    mcp: z
      .object({
        servers: mcpServersListSchema,
        alwaysAllowed: z.array(mcpAlwaysAllowedSchema).max(2000),
        workspaceDecisions: mcpWorkspaceDecisionsSchema,
        samplingMaxTokens: mcpSamplingMaxTokensSchema,
      })
      .partial(),
  })
  .partial()
  .strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

export const defaultSettings = (): Settings => settingsSchema.parse({});

/** The settings inside a section that are sections themselves: a patch merges them too, not replaces. */
const nestedSections: Readonly<Record<string, readonly string[]>> = { safety: ['backups'], schedules: ['heartbeat'] };

type Section = Record<string, unknown>;
const mergeSection = (name: string, previous: Section, patch: Section): Section => {
  const merged: Section = { ...previous, ...patch };
  for (const inner of nestedSections[name] ?? []) {
    merged[inner] = { ...(previous[inner] as Section), ...(patch[inner] as Section | undefined) };
  }
  return merged;
};

/** A patch applied as the core applies it: the provider replaced, every other section merged. */
export const applySettingsPatch = (previous: Settings, patch: SettingsPatch): Settings => {
  const merged: Section = { ...previous };
  for (const [name, change] of Object.entries(patch)) {
    merged[name] =
      name === 'provider' ? change : mergeSection(name, previous[name as keyof Settings] as Section, change as Section);
  }
  return settingsSchema.parse(merged);
};
