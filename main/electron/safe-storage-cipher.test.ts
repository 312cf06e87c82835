import { afterEach, describe, expect, it, vi } from 'vitest';

// The Electron binary cannot run here (importing it would try to download it): stand in for the
// safeStorage surface the cipher uses, with a backend the test can switch.
const state = { available: true, backend: 'gnome_libsecret' };
vi.mock('electron', () => ({
  safeStorage: {
    isEncryptionAvailable: () => state.available,
    getSelectedStorageBackend: () => state.backend,
    encryptString: (text: string) => Buffer.from(`enc:${text}`),
    decryptString: (data: Buffer) => data.toString().slice('enc:'.length),
  },
}));

const { createSafeStorageCipher } = await import('./safe-storage-cipher');

afterEach(() => {
  state.available = true;
  state.backend = 'gnome_libsecret';
});

describe('safeStorage cipher', () => {
  it('encrypts through safeStorage when a real key store backs it', () => {
    const cipher = createSafeStorageCipher();
    expect(cipher.isAvailable()).toBe(true);
    expect(cipher.decrypt(cipher.encrypt('sk-1'))).toBe('sk-1');
  });

  it('counts as unavailable when encryption is off, or on Linux with the hard-coded basic_text password', () => {
    state.available = false;
    expect(createSafeStorageCipher().isAvailable()).toBe(false);
    state.available = true;
    state.backend = 'basic_text';
    expect(createSafeStorageCipher().isAvailable()).toBe(process.platform !== 'linux');
  });
});
