import { useEffect, useId, useRef } from 'react';
import type { KeyboardEvent, ReactNode, SyntheticEvent } from 'react';
import { useFocusTrap } from './use-focus-trap';

export interface ModalProps {
  readonly open: boolean;
  /** The dialog closed itself (Esc, the close button): the owner sets `open` to false. */
  readonly onClose: () => void;
  /** The heading the dialog is named by. Without it, `labelledBy` names a heading inside the content. */
  readonly title?: ReactNode;
  /** The heading's id, for a dialog that tests or other markup find by it; otherwise a fresh one. */
  readonly titleId?: string;
  readonly labelledBy?: string;
  readonly describedBy?: string;
  /** A close button in a header beside the title. It takes focus when the dialog opens, unless the
   * content marks another element with `data-autofocus`. */
  readonly closeLabel?: string;
  /** Esc closes the dialog unless this says otherwise (the approval dialog starts a rejection). */
  readonly onEscape?: () => void;
  readonly onKeyDown?: (event: KeyboardEvent<HTMLDialogElement>) => void;
  readonly className?: string;
  /** Mounted only while the dialog is open: nothing inside loads or listens while it is closed. */
  readonly children?: ReactNode;
}

/** What the owner of a dialog passes it: whether it is open, and how it asks to be closed. */
export type DialogProps = Pick<ModalProps, 'open' | 'onClose'>;

/**
 * The one modal shell every dialog uses. A native modal <dialog>: the page behind is inert and Esc
 * fires `cancel`. On top of that: Tab wraps inside (useFocusTrap), the dialog is named by its
 * title, and closing gives focus back to whatever had it before, so keyboard users continue there.
 */
export function Modal(props: ModalProps) {
  const { open, onClose, title, closeLabel, onEscape, onKeyDown, className, children } = props;
  const ref = useRef<HTMLDialogElement>(null);
  const fallbackId = useId();
  const titleId = props.titleId ?? fallbackId;
  useFocusTrap(ref, open);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null || !open) return;
    const opener = document.activeElement;
    if (!dialog.open) dialog.showModal();
    // React's autoFocus runs before the dialog is shown, when nothing in it can take focus yet.
    // The last one marked wins: the content's choice comes after the header's close button.
    [...dialog.querySelectorAll<HTMLElement>('[data-autofocus]')].at(-1)?.focus();
    return () => {
      if (dialog.open) dialog.close();
      // Only where focus would otherwise be lost: the opener may have gone, or focus moved on already.
      if (opener instanceof HTMLElement && opener.isConnected && !dialog.contains(opener)) opener.focus();
    };
  }, [open]);

  const onCancel = (event: SyntheticEvent) => {
    if (onEscape === undefined) return;
    event.preventDefault();
    onEscape();
  };

  const heading = title !== undefined && <h2 id={titleId}>{title}</h2>;
  return (
    <dialog
      ref={ref}
      className={className === undefined ? 'dialog' : `dialog ${className}`}
      aria-labelledby={title !== undefined ? titleId : props.labelledBy}
      aria-describedby={props.describedBy}
      onCancel={onCancel}
      onClose={onClose}
      onKeyDown={onKeyDown}
    >
      {closeLabel === undefined ? (
        heading
      ) : (
        <div className="modal-header">
          {heading}
          <button type="button" className="button" onClick={onClose} data-autofocus>
            {closeLabel}
          </button>
        </div>
      )}
      {open && children}
    </dialog>
  );
}
