import { sep } from 'node:path';
import type { Fingerprint } from '../sandbox/fingerprint';

/**
 * What each conversation last saw of each file (stale-file protection, as in Claude Code): a write
 * or edit of a file that changed on disk since the assistant read it answers concurrent_modification
 * instead of clobbering the user's change. Long-lived: one tracker for the whole app.
 */
export interface ReadTracker {
  remember(conversationId: string, realPath: string, fingerprint: Fingerprint): void;
  seen(conversationId: string, realPath: string): Fingerprint | undefined;
  /** Forgets a file, or a folder and everything the conversation read under it. */
  forget(conversationId: string, realPath: string): void;
}

export interface ReadTrackerOptions {
  readonly maxConversations?: number;
  readonly maxFilesPerConversation?: number;
}

/** Bounded both ways (least recently used out first), so a long-running app does not grow. */
export function createReadTracker(options: ReadTrackerOptions = {}): ReadTracker {
  const maxConversations = options.maxConversations ?? 256;
  const maxFiles = options.maxFilesPerConversation ?? 4096;
  const conversations = new Map<string, Map<string, Fingerprint>>();

  const filesOf = (conversationId: string, create: boolean) => {
    let files = conversations.get(conversationId);
    if (files !== undefined) {
      conversations.delete(conversationId);
      conversations.set(conversationId, files);
    } else if (create) {
      files = new Map();
      conversations.set(conversationId, files);
      if (conversations.size > maxConversations) conversations.delete(conversations.keys().next().value!);
    }
    return files;
  };

  return {
    remember(conversationId, realPath, fingerprint) {
      const files = filesOf(conversationId, true)!;
      files.delete(realPath);
      files.set(realPath, fingerprint);
      if (files.size > maxFiles) files.delete(files.keys().next().value!);
    },
    seen: (conversationId, realPath) => filesOf(conversationId, false)?.get(realPath),
    forget(conversationId, realPath) {
      const files = filesOf(conversationId, false);
      if (files === undefined) return;
      files.delete(realPath);
      const below = realPath.endsWith(sep) ? realPath : realPath + sep;
      for (const path of [...files.keys()]) if (path.startsWith(below)) files.delete(path);
    },
  };
}
