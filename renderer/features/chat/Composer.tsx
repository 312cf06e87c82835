import { useEffect, useId, useRef, useState } from 'react';
import type { ClipboardEvent, DragEvent, KeyboardEvent } from 'react';
import { modelTakesImages } from '../../../shared/chat-images';
import { HiddenLabel } from '../../app/HiddenLabel';
import { useT } from '../../i18n/i18n';
import { conversationsActions } from '../conversations/conversations-actions';
import { providersActions } from '../providers/provider-actions';
import { useProvidersStore } from '../providers/providers-store';
import { attachmentsActions, toUpload, useAttachmentsStore } from './attachments-store';
import type { AttachProblem } from './attachments-store';
import { chatActions, mcpPicksActions } from './chat-actions';
import { ComposerMcpChips } from './ComposerMcpChips';
import { useMcpMenu } from './use-mcp-menu';
import { ComposerImages } from './ComposerImages';
import { isImageMime } from './prepare-image';
import type { PreparedImage } from './prepare-image';
import { useChatStore } from './chat-store';
import { draftActions, NEW_CONVERSATION_DRAFT, useDraftsStore } from './drafts-store';
import { transfersActions } from '../transfers/transfers-store';

const noImages: readonly PreparedImage[] = [];
const problemKeys = {
  'not-an-image': 'images.notAnImage',
  'too-large': 'images.tooLarge',
  unreadable: 'images.unreadable',
  'too-many': 'images.tooMany',
} as const satisfies Record<AttachProblem, string>;

const imageFiles = (files: FileList | undefined | null): File[] =>
  [...(files ?? [])].filter((file) => isImageMime(file.type));

interface ComposerProps {
  /** null before any conversation exists: sending creates one. */
  readonly conversationId: string | null;
}

/**
 * Where the user writes. Enter sends, Shift+Enter breaks the line (and Enter never sends while an
 * input method is composing, so Chinese and Japanese input works). While a turn runs, Send becomes
 * Stop and Esc in the box stops the turn; the draft is kept per conversation and survives reloads
 * (an incognito conversation's only in memory: see drafts-store). Pictures come in by Ctrl/Cmd+V, by
 * dropping them on the composer or through the attach button; a model that takes none refuses them
 * here, before anything is sent. `@` lists the MCP servers' resources and `/` their prompts
 * (ComposerMcpMenu); a pick becomes a chip and main reads it when the message is sent.
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
  const images = useAttachmentsStore((state) => state.pending[draftKey] ?? noImages);
  const problem = useAttachmentsStore((state) => state.problems[draftKey]);
  const provider = status?.provider ?? null;
  // Refused in the composer, never dropped on the way: the user sees why before sending.
  const refused = images.length > 0 && provider !== null && !modelTakesImages(provider);
  const box = useRef<HTMLTextAreaElement>(null);
  const mcp = useMcpMenu(draftKey, draft, box);
  const { picks } = mcp;
  /** Guards the moment between Enter and the core's answer (a conversation may be created first). */
  const sending = useRef(false);
  /** Enter was pressed during this turn: say why nothing was sent, until the turn ends. */
  const [heldDuring, setHeldDuring] = useState<string | null>(null);
  const heldBack = running && heldDuring === runningTurnId;

  // A newly opened conversation gets the keyboard.
  useEffect(() => {
    box.current?.focus();
  }, [conversationId]);

  const canSend =
    configured &&
    !running &&
    busy === null &&
    !refused &&
    (draft.trim() !== '' || images.length > 0 || picks.length > 0);

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
        attachmentsActions.move(NEW_CONVERSATION_DRAFT, id);
        mcpPicksActions.move(NEW_CONVERSATION_DRAFT, id);
        await chatActions.open(id);
      }
      draftActions.clearDraft(id);
      const pictures = attachmentsActions.take(id);
      const picked = mcpPicksActions.take(id);
      const accepted = await chatActions.send(
        id,
        text,
        pictures.map(toUpload),
        picked.map((pick) => pick.request),
      );
      // Refused (no provider, a turn already running...): give the words back unless new ones were typed.
      if (!accepted && (useDraftsStore.getState().drafts[id] ?? '') === '') draftActions.setDraft(id, draft);
      if (!accepted) attachmentsActions.restore(id, pictures);
      if (!accepted) mcpPicksActions.restore(id, picked);
    } finally {
      sending.current = false;
    }
  };

  const attach = (files: readonly File[]) => {
    if (files.length > 0) void attachmentsActions.add(draftKey, files);
  };

  // Ctrl/Cmd+V with a picture on the clipboard attaches it; text pastes as usual.
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = imageFiles(event.clipboardData.files);
    if (files.length === 0) return;
    event.preventDefault();
    attach(files);
  };

  // Pictures dropped on the composer are attached; other files go on to the window's drop (an upload).
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    const files = [...event.dataTransfer.files];
    if (files.length === 0 || files.some((file) => !isImageMime(file.type))) return;
    event.preventDefault();
    event.stopPropagation();
    transfersActions.setDragging(false);
    attach(files);
  };

  const stop = () => {
    if (conversationId !== null) void chatActions.stop(conversationId);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing || event.keyCode === 229) return;
    if (mcp.keyDown(event)) {
      event.preventDefault();
      return;
    }
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
    <div className="composer" onDrop={onDrop}>
      {status !== null && !configured && (
        <div className="composer-notice" role="note">
          <span>{status.provider === null ? t('composer.noProvider') : t('composer.providerIncomplete')}</span>
          <button type="button" className="button button-small" onClick={providersActions.openDialog}>
            {t('chat.setUpProvider')}
          </button>
        </div>
      )}
      {refused && provider !== null && (
        <div className="composer-notice composer-refusal" role="alert">
          <span>{t('images.refused', { model: provider.model })}</span>
        </div>
      )}
      {problem !== undefined && (
        <p className="composer-image-problem" role="status">
          {t(problemKeys[problem])}
        </p>
      )}
      <ComposerImages items={images} onRemove={(id) => attachmentsActions.remove(draftKey, id)} />
      <ComposerMcpChips items={picks} onRemove={(id) => mcpPicksActions.remove(draftKey, id)} />
      {mcp.view}
      <div className="composer-row">
        <HiddenLabel htmlFor="chat-composer">{t('composer.label')}</HiddenLabel>
        <textarea
          id="chat-composer"
          ref={box}
          className="composer-input"
          rows={1}
          value={draft}
          placeholder={t('composer.placeholder')}
          aria-describedby={hintId}
          aria-keyshortcuts="Enter Shift+Enter Escape"
          {...mcp.boxProps}
          onChange={(event) => {
            draftActions.setDraft(draftKey, event.target.value);
            mcp.typed(event.target.selectionStart);
          }}
          onSelect={(event) => mcp.moved(event.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        <AttachButton onFiles={attach} />
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

/** The attach button: a file picker for pictures (keyboard users reach it by Tab, after the box). */
function AttachButton({ onFiles }: { readonly onFiles: (files: readonly File[]) => void }) {
  const t = useT();
  const picker = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className="button composer-attach" onClick={() => picker.current?.click()}>
        {t('images.attach')}
      </button>
      <input
        ref={picker}
        type="file"
        hidden
        multiple
        accept="image/png,image/jpeg,image/gif,image/webp"
        data-testid="composer-image-input"
        onChange={(event) => {
          onFiles([...(event.target.files ?? [])]);
          event.target.value = '';
        }}
      />
    </>
  );
}
