import { randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 bits from the OS CSPRNG, URL-safe so it can ride in the printed URL. */
export const createAccessToken = (): string => randomBytes(32).toString('base64url');

export function tokenMatches(expected: string, presented: string | null | undefined): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  // timingSafeEqual throws on unequal lengths; the length itself is not secret.
  return a.length === b.length && timingSafeEqual(a, b);
}
