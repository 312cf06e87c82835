import { safeStorage } from 'electron';
import type { SecretCipher } from '../../platform/secrets/secret-cipher';

/**
 * The desktop app's SecretCipher: Electron safeStorage, through its asynchronous API (the sync
 * calls are deprecated in Electron 45). On Linux, Electron silently falls back to a hard-coded
 * password ('basic_text') when no keyring is running; that is not encryption worth the name, so it
 * counts as unavailable and the store keeps a 0600 file and tells the user.
 */
export function createSafeStorageCipher(): SecretCipher {
  return {
    async isAvailable() {
      if (!(await safeStorage.isAsyncEncryptionAvailable())) return false;
      return process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text';
    },
    encrypt: (plainText) => safeStorage.encryptStringAsync(plainText),
    // shouldReEncrypt (a rotated key) needs nothing here: the next save encrypts with the new key.
    decrypt: async (cipherText) => (await safeStorage.decryptStringAsync(cipherText)).result,
  };
}
