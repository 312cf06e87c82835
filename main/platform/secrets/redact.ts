/** Shapes of provider keys that may show up in an error message even when we never saw the key. */
const KEY_PATTERNS = [/\bsk-[A-Za-z0-9_*.-]{8,}/g, /\b(?:Bearer|x-api-key:?)\s+[A-Za-z0-9_*.-]{8,}/gi];

/**
 * Removes secrets from text bound for a log or the page. Providers echo keys back (OpenAI's 401
 * message quotes a partly masked key), so every provider message passes through here.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length >= 4) result = result.split(secret).join('[redacted]');
  }
  for (const pattern of KEY_PATTERNS) result = result.replace(pattern, '[redacted]');
  return result;
}
