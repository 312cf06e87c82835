import { useEffect, useId, useRef, useState } from 'react';

/**
 * A button that opens a panel beside it: the panel takes focus when it opens, a press outside both
 * closes it, and `close` gives focus back to the button (keyboard users continue where they were).
 */
export function usePopover() {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    panel.current?.focus();
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  return { open, setOpen, close, panelId, button, panel };
}
