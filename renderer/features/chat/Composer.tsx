import { useEffect, useId, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { useT } from '../../i18n/i18n';
import { conversationsActions } from '../conversations/conversations-actions';
import { providersActions } from '../providers/provider-actions';
import { useProvidersStore } from '../providers/providers-store';
import { chatActions } from './chat-actions';
import { useChatStore } from './chat-store';
import { draftActions, NEW_CONVERSATION_DRAFT, useDraftsStore } from './drafts-store';
import { transfersActions } from '../transfers/transfers-store';

interface ComposerProps {
  /** null before any conversation exists: sending creates one. */
  readonly conversationId: string | null;
}

/**
 * Where the user writes. Enter sends, Shift+Enter breaks the line (and Enter never sends while an
 * input method is composing, so Chinese and Japanese input works). While a turn runs, Send becomes
 * Stop and Esc in the box stops the turn; the draft is kept per conversation and survives reloads
 * (an incognito conversation's only in memory: see drafts-store).
 */
export function Composer({ conversationId }: ComposerProps) {
  const t = useT();
  const hintId = useId();
  const draftKey = conversationId ?? NEW_CONVERSATION_DRAFT;
  const draft = useDraftsStore((state) => state.drafts[draftKey] ?? '');
  const runningTurnId = useChatStore((state) =>
    conversationId === null ? null : (state.threads[conversationId]?.thread.runningTurnId ?? null),
  );
  const running = runningTurnId !== null;
  const busy = useChatStore((state) =>
    conversationId === null ? null : (state.threads[conversationId]?.busy ?? null),
  );
  const status = useProvidersStore((state) => state.status);
  const configured = status?.configured === true;
  const box = useRef<HTMLTextAreaElement>(null);
  /** Guards the moment between Enter and the core's answer (a conversation may be created first). */
  const sending = useRef(false);
  /** Enter was pressed during this turn: say why nothing was sent, until the turn ends. */
  const [heldDuring, setHeldDuring] = useState<string | null>(null);
  const heldBack = running && heldDuring === runningTurnId;

  // A newly opened conversation gets the keyboard.
  useEffect(() => {
    box.current?.focus();
  }, [conversationId]);

  const canSend = configured && !running && busy === null && draft.trim() !== '';

  const send = async () => {
    if (!canSend || sending.current) return;
    sending.current = true;
    try {
      // Files the user dropped since the last message: the model is told what arrived and where.
      const notes = transfersActions.takeUploadNotes();
      const text = notes.length === 0 ? draft : `${notes.join('\n')}\n\n${draft}`;
      let id = conversationId;
      if (id === null) {
        const created = await conversationsActions.create();
        if (created === null) return;
        id = created.id;
        draftActions.moveDraft(NEW_CONVERSATION_DRAFT, id);
        await chatActions.open(id);
      }
      draftActions.clearDraft(id);
      const accepted = await chatActions.send(id, text);
      // Refused (no provider, a turn already running...): give the words back unless new ones were typed.
      if (!accepted && (useDraftsStore.getState().drafts[id] ?? '') === '') draftActions.setDraft(id, draft);
    } finally {
      sending.current = false;
    }
  };

  const stop = () => {
    if (conversationId !== null) void chatActions.stop(conversationId);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing || event.keyCode === 229) return;
    if (event.key === 'Enter' && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      if (running && draft.trim() !== '') setHeldDuring(runningTurnId);
      void send();
    } else if (event.key === 'Escape' && running) {
      event.preventDefault();
      stop();
    }
  };

  return (
    <div className="composer">
      {status !== null && !configured && (
        <div className="composer-notice" role="note">
          <span>{status.provider === null ? t('composer.noProvider') : t('composer.providerIncomplete')}</span>
          <button type="button" className="button button-small" onClick={providersActions.openDialog}>
            {t('chat.setUpProvider')}
          </button>
        </div>
      )}
      <div className="composer-row">
        <label htmlFor="chat-composer" className="visually-hidden">
          {t('composer.label')}
        </label>
        <textarea
          id="chat-composer"
          ref={box}
          className="composer-input"
          rows={1}
          value={draft}
          placeholder={t('composer.placeholder')}
          aria-describedby={hintId}
          aria-keyshortcuts="Enter Shift+Enter Escape"
          onChange={(event) => draftActions.setDraft(draftKey, event.target.value)}
          onKeyDown={onKeyDown}
        />
        {running ? (
          <button
            type="button"
            className="button button-danger"
            onClick={stop}
            disabled={busy === 'stopping'}
            aria-keyshortcuts="Escape"
          >
            {t('composer.stop')}
          </button>
        ) : (
          <button type="button" className="button button-primary" onClick={() => void send()} disabled={!canSend}>
            {t('composer.send')}
          </button>
        )}
      </div>
      <p id={hintId} className={heldBack ? 'composer-hint composer-hint-held' : 'composer-hint'}>
        {running ? t('composer.hintRunning') : t('composer.hint')}
      </p>
      {/* Announced, and visible next to the hint: Enter did not send, and the words are not lost. */}
      <p className="composer-held" role="status">
        {heldBack ? t('composer.heldBack') : ''}
      </p>
    </div>
  );
}
