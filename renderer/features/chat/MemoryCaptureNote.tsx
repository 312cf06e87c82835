import type { MemoryCapture } from '../../../shared/ipc/chat';
import { useT } from '../../i18n/i18n';

/** The entry as the user wrote nothing of it: without the note's date heading and the time stamp. */
const entryText = (entry: string) => entry.replace(/^#[^\n]*\n+/, '').replace(/^- \[[^\]]*\] /, '');

/**
 * What the turn kept in memory before earlier messages left the model's context (a silent call made
 * it): one compact line per entry written, or a line saying nothing needed keeping, or why it failed.
 */
export function MemoryCaptureNote({ capture }: { readonly capture: MemoryCapture }) {
  const t = useT();
  return (
    <div className="memory-capture" role="note" aria-label={t('chat.memoryCaptureLabel')}>
      {capture.kept.map((item, index) => (
        <p key={index} className="memory-capture-line muted">
          <span className="memory-capture-where">{t('chat.memoryKept', { path: item.path })}</span>{' '}
          <span className="memory-capture-entry">{entryText(item.entry)}</span>
        </p>
      ))}
      {capture.error !== undefined ? (
        <p className="memory-capture-line muted">{t('chat.memoryCaptureFailed', { message: capture.error })}</p>
      ) : (
        capture.kept.length === 0 && <p className="memory-capture-line muted">{t('chat.memoryNothingKept')}</p>
      )}
    </div>
  );
}
