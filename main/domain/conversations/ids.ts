import { randomBytes } from 'node:crypto';

/**
 * Ids for conversations (c…), turns (t…) and messages (m…): time-ordered, unguessable enough to
 * never collide, and safe as file names (they match idSchema in shared/ipc/chat.ts).
 */
export function newId(prefix: 'c' | 't' | 'm'): string {
  return `${prefix}${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;
}
