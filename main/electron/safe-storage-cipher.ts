import { safeStorage } from 'electron';
import type { SecretCipher } from '../secrets/secret-cipher';

/**
 * The desktop app's SecretCipher: Electron safeStorage. On Linux, Electron silently falls back to a
 * hard-coded password ('basic_text') when no keyring is running; that is not encryption worth the
 * name, so it counts as unavailable and the store keeps a 0600 file and tells the user.
 */
export function createSafeStorageCipher(): SecretCipher {
  return {
    isAvailable() {
      if (!safeStorage.isEncryptionAvailable()) return false;
      return process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text';
    },
    encrypt: (plainText) => safeStorage.encryptString(plainText),
    decrypt: (cipherText) => safeStorage.decryptString(cipherText),
  };
}
