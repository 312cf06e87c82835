import { useEffect, useState } from 'react';
import type { AssistantMessage } from '../../../shared/ipc/conversations';
import type { MessageKey } from '../../i18n/en';
import { useT } from '../../i18n/i18n';
import { errorMessageKey } from '../providers/provider-error-text';
import { useChatStore } from './chat-store';
import type { ChatState } from './chat-store';

/** Sentence ends in the scripts our users write (Latin, Cyrillic, CJK) and line breaks. */
const SENTENCE_END = /[.!?。！？\n]/g;

/** Markdown punctuation a screen reader would otherwise read aloud. */
export const speakable = (text: string) =>
  text
    .replace(/^ {0,3}(`{3,}|~{3,}).*$/gm, '')
    .replace(/[*_`#>|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const textOf = (message: AssistantMessage) =>
  message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');

function lastSentenceEnd(text: string, from: number): number {
  let end = from;
  SENTENCE_END.lastIndex = from;
  for (let match = SENTENCE_END.exec(text); match !== null; match = SENTENCE_END.exec(text)) end = match.index + 1;
  return end;
}

const lastAssistant = (state: ChatState, conversationId: string): AssistantMessage | undefined => {
  const message = state.threads[conversationId]?.thread.messages.at(-1);
  return message?.role === 'assistant' ? message : undefined;
};

type Announcement = { readonly polite: string } | { readonly assertive: MessageKey; readonly code?: string };

/**
 * Screen-reader voice of the chat: the streaming reply is read sentence by sentence (a polite live
 * region outside the virtualized list, whose rows come and go), and a stop or failure is announced
 * assertively. Replies loaded from history are never read out.
 */
export function StreamAnnouncer({ conversationId }: { readonly conversationId: string }) {
  const t = useT();
  const [polite, setPolite] = useState('');
  const [assertive, setAssertive] = useState<{ key: MessageKey; code?: string } | null>(null);

  useEffect(() => {
    let seen: { turnId: string; spoken: number; status: AssistantMessage['status'] } | null = null;
    const observe = (last: AssistantMessage | undefined): Announcement[] => {
      if (last === undefined) return [];
      const text = textOf(last);
      if (seen?.turnId !== last.id) {
        // A turn that is not live when first seen is history: nothing to read.
        seen = { turnId: last.id, spoken: last.status === 'running' ? 0 : text.length, status: last.status };
      }
      const said: Announcement[] = [];
      const upto = last.status === 'running' ? lastSentenceEnd(text, seen.spoken) : text.length;
      if (upto > seen.spoken) {
        const chunk = speakable(text.slice(seen.spoken, upto));
        seen.spoken = upto;
        if (chunk !== '') said.push({ polite: chunk });
      }
      if (seen.status === 'running' && last.status === 'stopped') said.push({ assertive: 'chat.stopped' });
      if (seen.status === 'running' && last.status === 'error' && last.error !== undefined) {
        said.push({ assertive: errorMessageKey(last.error.code), code: last.error.code });
      }
      seen.status = last.status;
      return said;
    };
    observe(lastAssistant(useChatStore.getState(), conversationId));
    return useChatStore.subscribe((state) => {
      for (const announcement of observe(lastAssistant(state, conversationId))) {
        if ('polite' in announcement) setPolite(announcement.polite);
        else
          setAssertive({
            key: announcement.assertive,
            ...(announcement.code === undefined ? {} : { code: announcement.code }),
          });
      }
    });
  }, [conversationId]);

  return (
    <>
      <div className="visually-hidden" role="status" aria-live="polite" data-testid="chat-live-region">
        {polite}
      </div>
      <div className="visually-hidden" role="alert" aria-live="assertive">
        {assertive === null ? '' : t(assertive.key, { code: assertive.code ?? '' })}
      </div>
    </>
  );
}
