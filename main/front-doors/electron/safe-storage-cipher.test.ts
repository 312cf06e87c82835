import { afterEach, describe, expect, it, vi } from 'vitest';

// The Electron binary cannot run here (importing it would try to download it): stand in for the
// safeStorage surface the cipher uses, with a backend the test can switch.
const state = { available: true, backend: 'gnome_libsecret' };
vi.mock('electron', () => ({
  safeStorage: {
    // Only the asynchronous API exists here: a call to a deprecated sync one fails the test.
    isAsyncEncryptionAvailable: () => Promise.resolve(state.available),
    getSelectedStorageBackend: () => state.backend,
    encryptStringAsync: (text: string) => Promise.resolve(Buffer.from(`enc:${text}`)),
    decryptStringAsync: (data: Buffer) =>
      Promise.resolve({ result: data.toString().slice('enc:'.length), shouldReEncrypt: false }),
  },
}));

const { createSafeStorageCipher } = await import('./safe-storage-cipher');

afterEach(() => {
  state.available = true;
  state.backend = 'gnome_libsecret';
});

describe('safeStorage cipher', () => {
  it('encrypts through safeStorage when a real key store backs it', async () => {
    const cipher = createSafeStorageCipher();
    expect(await cipher.isAvailable()).toBe(true);
    expect(await cipher.decrypt(await cipher.encrypt('sk-1'))).toBe('sk-1');
  });

  it('counts as unavailable when encryption is off, or on Linux with the hard-coded basic_text password', async () => {
    state.available = false;
    expect(await createSafeStorageCipher().isAvailable()).toBe(false);
    state.available = true;
    state.backend = 'basic_text';
    expect(await createSafeStorageCipher().isAvailable()).toBe(process.platform !== 'linux');
  });
});
