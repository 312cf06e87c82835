import { z } from 'zod';
import type { KeyStorage } from '../../../shared/ipc/providers';
import type { ProviderKind } from '../../../shared/settings';
import type { Logger } from '../logging/logger';
import { restrictFileMode } from '../storage/data-files';
import { readJsonFile, writeJsonFile } from '../storage/json-file';
import type { SecretCipher } from './secret-cipher';

/**
 * Secrets are named by what they unlock: one API key per provider kind; one per web search service;
 * an MCP server's environment values, header values and OAuth state (`mcp:<server id>:<what>`).
 */
export type SecretName = `apiKey:${ProviderKind}` | `searchKey:${'brave' | 'tavily'}` | `mcp:${string}`;
export const apiKeySecret = (kind: ProviderKind): SecretName => `apiKey:${kind}`;
export const searchKeySecret = (service: 'brave' | 'tavily'): SecretName => `searchKey:${service}`;

/**
 * API keys, kept apart from settings.json in <home>/secrets.json (mode 0600). With a working
 * cipher (Electron safeStorage) each value is encrypted by the OS key store; without one (browser
 * mode) it is plain text protected only by the file mode, and `keyStorage` says so for the UI.
 * Values never leave main: nothing here is reachable from a contract output, and nothing logs them.
 */
export interface SecretStore {
  readonly keyStorage: KeyStorage;
  get(name: SecretName): string | undefined;
  has(name: SecretName): boolean;
  /** null deletes. */
  set(name: SecretName, value: string | null): Promise<void>;
  /** Every saved value: error messages and logs are scrubbed of these. */
  values(): readonly string[];
  /** The names of the saved secrets (to drop those nothing refers to any more). */
  names(): readonly SecretName[];
}

const entrySchema = z.object({ encoding: z.enum(['safeStorage', 'plain']), data: z.string() });
const fileSchema = z.object({ version: z.literal(1), entries: z.record(z.string(), entrySchema) });
type StoredEntry = z.infer<typeof entrySchema>;

export async function openSecretStore(
  file: string,
  cipher: SecretCipher | undefined,
  logger: Logger,
): Promise<SecretStore> {
  const encrypting = cipher !== undefined && (await cipher.isAvailable());
  const stored = await load(file, logger);
  const plain = new Map<string, string>();
  for (const [name, entry] of Object.entries(stored)) {
    const value = await reveal(entry, encrypting ? cipher : undefined);
    if (value === undefined)
      logger.warn(`the saved secret ${name} could not be decrypted here; it must be entered again`);
    else plain.set(name, value);
  }
  let writing = Promise.resolve();

  /** The values as they are now, encrypted if the OS can; taken before the write waits its turn. */
  const encode = async (values: readonly (readonly [string, string])[]) => {
    const entries: Record<string, StoredEntry> = {};
    for (const [name, value] of values) {
      entries[name] =
        encrypting && cipher !== undefined
          ? { encoding: 'safeStorage', data: (await cipher.encrypt(value)).toString('base64') }
          : { encoding: 'plain', data: value };
    }
    return { version: 1 as const, entries };
  };

  const persist = () => {
    const content = encode([...plain]);
    writing = writing.catch(() => undefined).then(async () => writeJsonFile(file, fileSchema, await content, 0o600));
    return writing;
  };

  return {
    keyStorage: encrypting ? 'encrypted' : 'plaintext-file',
    get: (name) => plain.get(name),
    has: (name) => plain.has(name),
    async set(name, value) {
      if (value === null) plain.delete(name);
      else plain.set(name, value);
      await persist();
    },
    values: () => [...plain.values()],
    names: () => [...plain.keys()] as SecretName[],
  };
}

async function reveal(entry: StoredEntry, cipher: SecretCipher | undefined): Promise<string | undefined> {
  if (entry.encoding === 'plain') return entry.data;
  if (cipher === undefined) return undefined;
  try {
    return await cipher.decrypt(Buffer.from(entry.data, 'base64'));
  } catch {
    return undefined;
  }
}

async function load(file: string, logger: Logger): Promise<Record<string, StoredEntry>> {
  const stored = await readJsonFile(file, fileSchema);
  if (stored.state === 'absent') return {};
  // A copy restored from a backup may have lost its mode: tighten it before anything else.
  await restrictFileMode(file, 0o600);
  if (stored.state === 'valid') return stored.value.entries;
  // Never echo the file's text or the schema's complaint about it: it holds secrets.
  logger.warn('secrets.json is not valid; saved API keys must be entered again');
  return {};
}
