import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFileSync, writeJsonFileSync } from '../../platform/storage/json-file';

/**
 * The window's size and position, remembered in the Familiar home between runs. Restoring is pure
 * (saved state + the displays now attached → bounds), so the awkward cases — a monitor unplugged,
 * a resolution lowered, a corrupt file — are tested without Electron.
 */
export interface Rectangle {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export const windowStateSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  maximized: z.boolean(),
});
export type WindowState = z.infer<typeof windowStateSchema>;

export interface WindowPlacement {
  /** Without x/y Electron centres the window on the primary display. */
  readonly bounds: { readonly width: number; readonly height: number; readonly x?: number; readonly y?: number };
  readonly maximized: boolean;
}

export const defaultWindowSize = { width: 1280, height: 820 } as const;
export const minimumWindowSize = { width: 760, height: 520 } as const;
/** Less of the window than this on any display and it counts as lost (e.g. its monitor was unplugged). */
const minimumVisible = { width: 120, height: 60 } as const;

export const windowStateFileName = 'window-state.json';

export function windowStateFile(home: string): string {
  return join(home, windowStateFileName);
}

function overlap(a: Rectangle, b: Rectangle): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  };
}

const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), Math.max(low, high));

/** A size no smaller than the window's minimum and no larger than the work area. */
function fitSize(size: { width: number; height: number }, workArea: Rectangle) {
  return {
    width: clamp(size.width, minimumWindowSize.width, workArea.width),
    height: clamp(size.height, minimumWindowSize.height, workArea.height),
  };
}

/**
 * Where to open the window: the saved bounds if they are still mostly on a display (pulled fully
 * inside that display's work area and shrunk to fit it), otherwise the saved or default size
 * centred on the primary display.
 */
export function restoreWindowPlacement(
  saved: WindowState | undefined,
  workAreas: readonly Rectangle[],
  primaryWorkArea: Rectangle,
): WindowPlacement {
  if (saved === undefined) return { bounds: fitSize(defaultWindowSize, primaryWorkArea), maximized: false };

  let best: { area: Rectangle; visible: number } | undefined;
  for (const area of workAreas) {
    const visible = overlap(saved, area);
    if (visible.width < minimumVisible.width || visible.height < minimumVisible.height) continue;
    if (best === undefined || visible.width * visible.height > best.visible) {
      best = { area, visible: visible.width * visible.height };
    }
  }
  if (best === undefined) return { bounds: fitSize(saved, primaryWorkArea), maximized: saved.maximized };

  const { area } = best;
  const size = fitSize(saved, area);
  return {
    bounds: {
      ...size,
      x: clamp(saved.x, area.x, area.x + area.width - size.width),
      y: clamp(saved.y, area.y, area.y + area.height - size.height),
    },
    maximized: saved.maximized,
  };
}

/** The saved state, or undefined when there is none or it cannot be trusted. */
export function loadWindowState(file: string): WindowState | undefined {
  const stored = readJsonFileSync(file, windowStateSchema);
  return stored.state === 'valid' ? stored.value : undefined;
}

/**
 * Written synchronously because it runs as the window closes, moments before the app may quit;
 * written atomically so a crash mid-write never leaves a half file. The home exists by then (the
 * core made it at start-up).
 */
export function saveWindowState(file: string, state: WindowState): void {
  writeJsonFileSync(file, windowStateSchema, state);
}

/** What the tracker needs from a BrowserWindow. */
export interface TrackedWindow {
  on(event: 'close', listener: () => void): unknown;
  getNormalBounds(): Rectangle;
  isMaximized(): boolean;
}

/** Saves the window's normal (un-maximized) bounds and maximized flag whenever it closes. */
export function rememberWindowState(window: TrackedWindow, save: (state: WindowState) => void): void {
  window.on('close', () => {
    const bounds = window.getNormalBounds();
    save({
      x: Math.round(bounds.x),
      y: Math.round(bounds.y),
      width: Math.round(bounds.width),
      height: Math.round(bounds.height),
      maximized: window.isMaximized(),
    });
  });
}
