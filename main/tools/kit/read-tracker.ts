import type { Fingerprint } from '../../platform/disk/fingerprint';

/**
 * What each conversation last saw of each file (stale-file protection, as in Claude Code): a write
 * or edit of a file that changed on disk since the assistant read it answers concurrent_modification
 * instead of clobbering the user's change. Long-lived: one tracker for the whole app.
 */
export interface ReadTracker {
  remember(conversationId: string, key: string, fingerprint: Fingerprint): void;
  seen(conversationId: string, key: string): Fingerprint | undefined;
  /** Forgets a file, or a folder and everything the conversation read under it (keys as ResolvedPath.key). */
  forget(conversationId: string, key: string): void;
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
    remember(conversationId, key, fingerprint) {
      const files = filesOf(conversationId, true)!;
      files.delete(key);
      files.set(key, fingerprint);
      if (files.size > maxFiles) files.delete(files.keys().next().value!);
    },
    seen: (conversationId, key) => filesOf(conversationId, false)?.get(key),
    forget(conversationId, key) {
      const files = filesOf(conversationId, false);
      if (files === undefined) return;
      files.delete(key);
      // 'workspace:' is the root: everything of that folder is below it.
      const below = key.endsWith(':') ? key : `${key}/`;
      for (const path of [...files.keys()]) if (path.startsWith(below)) files.delete(path);
    },
  };
}
