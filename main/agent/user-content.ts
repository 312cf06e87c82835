import type { UserContent } from 'ai';
import type { ImageRef } from '../../shared/chat-images';
import type { McpAttachment } from '../../shared/mcp-attachments';
import { attachmentForModel } from '../domain/mcp-servers/mcp-attachments';
import type { ImageBytes } from '../domain/conversations/chat-images';
import type { FoldedConversation } from '../domain/conversations/transcript-fold';

/** What the model is sent of a user message's pictures: their bytes by hash, and whether it takes any. */
export interface UserImages {
  /** The model takes pictures (shared/chat-images.ts, modelTakesImages). */
  readonly vision: boolean;
  readonly bytes: ReadonlyMap<string, ImageBytes>;
}

/** The picture sent for a ref: its scaled copy when it has one, else the original. */
export const sentHash = (ref: ImageRef): string => ref.sent?.hash ?? ref.hash;

const describe = (ref: ImageRef) =>
  `${ref.name === undefined ? 'a picture' : `the picture ${JSON.stringify(ref.name)}`} (${ref.width}×${ref.height})`;

/**
 * A user message as the model gets it: its words, then each picture as an image part. A picture the
 * model cannot be shown (it takes none, or the file is gone) becomes a sentence saying so, never a
 * silent gap: the model must not answer as if nothing had been attached. Resources and prompts of
 * the user's MCP servers follow the words, each marked as the server's content (mcp-attachments.ts).
 */
export function userContent(
  text: string,
  images: readonly ImageRef[] | undefined,
  seen: UserImages,
  attachments: readonly McpAttachment[] = [],
): UserContent {
  if ((images === undefined || images.length === 0) && attachments.length === 0) return text;
  const content: Exclude<UserContent, string> = text === '' ? [] : [{ type: 'text', text }];
  for (const attachment of attachments) content.push({ type: 'text', text: attachmentForModel(attachment) });
  for (const ref of images ?? []) {
    const picture = seen.vision ? seen.bytes.get(sentHash(ref)) : undefined;
    if (picture !== undefined) {
      content.push({ type: 'file', mediaType: picture.mime, data: { type: 'data', data: picture.bytes } });
      continue;
    }
    const why = seen.vision ? 'its file is missing from the Familiar home' : 'this model does not take images';
    content.push({ type: 'text', text: `[The user attached ${describe(ref)}; it is not shown: ${why}.]` });
  }
  return content;
}

/** The hashes of every picture the conversation's user messages send. */
export const historyImageHashes = (conversation: FoldedConversation): string[] =>
  conversation.exchanges.flatMap((exchange) => (exchange.images ?? []).map(sentHash));

/** Reads the pictures a request needs (none when the model takes none). */
export async function loadUserImages(
  hashes: readonly string[],
  vision: boolean,
  read: (hash: string) => Promise<ImageBytes | undefined>,
): Promise<UserImages> {
  const bytes = new Map<string, ImageBytes>();
  if (vision) {
    for (const hash of new Set(hashes)) {
      const picture = await read(hash);
      if (picture !== undefined) bytes.set(hash, picture);
    }
  }
  return { vision, bytes };
}
