import type { ReactNode } from 'react';
import { usePopover } from './use-popover';
import { Button } from './Button';

interface PopoverProps {
  /** What the button says. */
  readonly label: ReactNode;
  /** The panel's heading, which also names it for assistive technology. */
  readonly title: string;
  /** The panel's own class, beside `popover`. */
  readonly className: string;
  /** A panel whose content scrolls is in the tab order: only a focusable region scrolls by keyboard. */
  readonly scrollable?: boolean;
  /** Called when the button is pressed, before the panel opens or closes. */
  readonly onToggle?: () => void;
  /** Shown after the button whether the panel is open or not (a status message, say). */
  readonly beside?: ReactNode;
  /** The panel's content; given `close` when it needs to close the panel itself. */
  readonly children: ReactNode | ((close: () => void) => ReactNode);
}

/**
 * The one button-and-panel shell (Tools, New incognito conversation): the panel is a non-modal
 * dialog beside its button, takes focus when it opens, closes on Esc or a press outside, and gives
 * focus back to the button (usePopover).
 */
export function Popover({ label, title, className, scrollable = false, onToggle, beside, children }: PopoverProps) {
  const { open, setOpen, close, panelId, button, panel } = usePopover();
  return (
    <div className="popover-anchor">
      <Button
        ref={button}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          onToggle?.();
          setOpen(!open);
        }}
      >
        {label}
      </Button>
      {beside}
      {open && (
        <div
          ref={panel}
          id={panelId}
          className={`popover ${className}`}
          role="dialog"
          aria-label={title}
          tabIndex={scrollable ? 0 : -1}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation();
              close();
            }
          }}
        >
          <h2 className="popover-title">{title}</h2>
          {typeof children === 'function' ? children(close) : children}
        </div>
      )}
    </div>
  );
}
