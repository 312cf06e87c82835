/**
 * Encrypts secrets at rest with a key the OS keeps (Electron safeStorage in the desktop app:
 * Keychain on macOS, DPAPI on Windows, the Secret Service/KWallet on Linux). Injected into the
 * secret store so plain Node (browser mode, tests) never needs Electron.
 */
export interface SecretCipher {
  /**
   * False when the OS offers no real key store (e.g. Linux without a keyring, where Electron would
   * fall back to a hard-coded password): the store then keeps keys in a 0600 file and says so.
   */
  isAvailable(): Promise<boolean>;
  /** Asynchronous like Electron's safeStorage API (the sync calls are deprecated): the OS may prompt. */
  encrypt(plainText: string): Promise<Buffer>;
  decrypt(cipherText: Buffer): Promise<string>;
}
