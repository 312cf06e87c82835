import { useRef } from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';
import { useT } from '../i18n/i18n';
import { layoutActions } from './layout-store';

/** One arrow press; with Shift, five. */
const step = 16;

export interface PaneResizerProps {
  /** The file pane's width now, in CSS pixels: the separator's value. */
  readonly value: number;
  readonly min: number;
  readonly max: number;
  /** The id of the pane it resizes. */
  readonly controls: string;
}

/**
 * The handle between the chat and the file pane (the WAI-ARIA window splitter): drag it, or focus
 * it and use the arrow keys (Left widens the file pane, since the handle moves left), Home and End.
 * The width is remembered; the layout clamps it so the chat keeps its minimum.
 */
export function PaneResizer({ value, min, max, controls }: PaneResizerProps) {
  const t = useT();
  const drag = useRef<{ readonly startX: number; readonly startWidth: number } | null>(null);
  const clamp = (width: number) => Math.min(max, Math.max(min, Math.round(width)));

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const by = event.shiftKey ? step * 5 : step;
    const next =
      event.key === 'ArrowLeft'
        ? value + by
        : event.key === 'ArrowRight'
          ? value - by
          : event.key === 'Home'
            ? min
            : event.key === 'End'
              ? max
              : null;
    if (next === null) return;
    event.preventDefault();
    layoutActions.setViewerWidth(clamp(next), true);
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    event.currentTarget.focus();
    drag.current = { startX: event.clientX, startWidth: value };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current === null) return;
    layoutActions.setViewerWidth(clamp(drag.current.startWidth - (event.clientX - drag.current.startX)), false);
  };
  const endDrag = () => {
    if (drag.current === null) return;
    drag.current = null;
    layoutActions.setViewerWidth(value, true);
  };

  return (
    <div
      className="pane-resizer"
      role="separator"
      aria-orientation="vertical"
      aria-label={t('layout.resizeViewer')}
      aria-controls={controls}
      aria-valuenow={value}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={endDrag}
      onPointerCancel={endDrag}
    />
  );
}
