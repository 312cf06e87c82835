import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStderrLogger } from '../logging/logger';
import { useTempDirs } from '../../test-support/temp-dir';
import { redactSecrets } from './redact';
import type { SecretCipher } from './secret-cipher';
import { apiKeySecret, openSecretStore } from './secret-store';

const tempDir = useTempDirs();
const KEY = 'sk-ant-api03-abcdefghijklmnop';

/** A real AES-256-GCM cipher standing in for the OS key store (safeStorage needs Electron). */
function aesCipher(key = randomBytes(32)): SecretCipher {
  return {
    isAvailable: () => Promise.resolve(true),
    encrypt(plainText) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
      return Promise.resolve(Buffer.concat([iv, cipher.getAuthTag(), body]));
    },
    decrypt(data) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
        decipher.setAuthTag(data.subarray(12, 28));
        return Promise.resolve(Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8'));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },
  };
}

function captureLogger() {
  const lines: string[] = [];
  return { lines, logger: createStderrLogger('test', (line) => lines.push(line)) };
}

describe('secret store', () => {
  it('browser mode: keeps keys in a 0600 file and says it is plain text', async () => {
    const file = join(await tempDir(), 'secrets.json');
    const store = await openSecretStore(file, undefined, captureLogger().logger);
    expect(store.keyStorage).toBe('plaintext-file');
    await store.set(apiKeySecret('anthropic'), KEY);
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    const reopened = await openSecretStore(file, undefined, captureLogger().logger);
    expect(reopened.get(apiKeySecret('anthropic'))).toBe(KEY);
    expect(reopened.has(apiKeySecret('openai'))).toBe(false);
    await reopened.set(apiKeySecret('anthropic'), null);
    expect((await openSecretStore(file, undefined, captureLogger().logger)).has(apiKeySecret('anthropic'))).toBe(false);
  });

  it('desktop: encrypts every value with the injected cipher, never writing the key in clear', async () => {
    const file = join(await tempDir(), 'secrets.json');
    const cipher = aesCipher();
    const store = await openSecretStore(file, cipher, captureLogger().logger);
    expect(store.keyStorage).toBe('encrypted');
    await store.set(apiKeySecret('openai'), KEY);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).toContain('"encoding": "safeStorage"');
    expect((await openSecretStore(file, cipher, captureLogger().logger)).get(apiKeySecret('openai'))).toBe(KEY);
  });

  it('falls back to the 0600 file when the OS key store is unavailable', async () => {
    const unavailable: SecretCipher = { ...aesCipher(), isAvailable: () => Promise.resolve(false) };
    const store = await openSecretStore(join(await tempDir(), 'secrets.json'), unavailable, captureLogger().logger);
    expect(store.keyStorage).toBe('plaintext-file');
  });

  it('drops a value it cannot decrypt (another machine, a reset keychain) with a warning that names no secret', async () => {
    const file = join(await tempDir(), 'secrets.json');
    await (await openSecretStore(file, aesCipher(), captureLogger().logger)).set(apiKeySecret('openai'), KEY);
    const { lines, logger } = captureLogger();
    const other = await openSecretStore(file, aesCipher(), logger);
    expect(other.has(apiKeySecret('openai'))).toBe(false);
    expect(lines.join('')).toContain('apiKey:openai could not be decrypted');
    expect(lines.join('')).not.toContain(KEY);
  });

  it('tightens a loosened file mode and never echoes an invalid file', async () => {
    const file = join(await tempDir(), 'secrets.json');
    await writeFile(file, `{"broken": "${KEY}"`);
    await chmod(file, 0o644);
    const { lines, logger } = captureLogger();
    const store = await openSecretStore(file, undefined, logger);
    expect(store.values()).toEqual([]);
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(lines.join('')).toContain('secrets.json is not valid');
    expect(lines.join('')).not.toContain(KEY);
  });
});

describe('redactSecrets', () => {
  it('removes known secrets and key-shaped strings', () => {
    expect(redactSecrets(`bad key ${KEY}!`, [KEY])).toBe('bad key [redacted]!');
    expect(redactSecrets('Incorrect API key provided: sk-proj-abc1234567', [])).toBe(
      'Incorrect API key provided: [redacted]',
    );
    expect(redactSecrets('header was Bearer abcdefgh12345678', [])).toBe('header was [redacted]');
    expect(redactSecrets('nothing secret here', ['abc'])).toBe('nothing secret here');
  });
});
