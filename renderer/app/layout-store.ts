import { useEffect } from 'react';
import { create } from 'zustand';
import { canDock, planLayout, viewerWidthFor, viewerWidthRange } from './layout-plan';
import type { LayoutPlan, PanelPreferences, SidePanel } from './layout-plan';

export const LAYOUT_STORAGE_KEY = 'familiar.layout.v1';
export const VIEWER_WIDTH_STORAGE_KEY = 'familiar.viewerWidth.v1';

export interface LayoutState {
  /** The toggles' state, remembered in this window's storage between runs. */
  readonly wanted: PanelPreferences;
  /** A collapsed panel shown over the chat for a moment (narrow window), or none. */
  readonly overlay: SidePanel | null;
  readonly width: number;
  /** The docked file pane's width as the user set it (remembered); null until they resize it. */
  readonly viewerWidth: number | null;
}

const shownByDefault: PanelPreferences = { workspace: true, conversations: true };

const browserStorage = (): Storage | undefined => {
  try {
    return globalThis.localStorage;
  } catch {
    // Storage can be disabled: the layout then resets with the page, which is harmless.
    return undefined;
  }
};

/** Reads the remembered toggles, ignoring a damaged or older entry. */
export function readSavedLayout(storage: Storage | undefined): PanelPreferences {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(LAYOUT_STORAGE_KEY) ?? 'null');
    if (typeof parsed !== 'object' || parsed === null) return shownByDefault;
    const saved = parsed as Record<string, unknown>;
    return {
      workspace: typeof saved['workspace'] === 'boolean' ? saved['workspace'] : true,
      conversations: typeof saved['conversations'] === 'boolean' ? saved['conversations'] : true,
    };
  } catch {
    return shownByDefault;
  }
}

/** The remembered file pane width, or null (never resized, damaged entry). */
export function readSavedViewerWidth(storage: Storage | undefined): number | null {
  try {
    const saved = Number(storage?.getItem(VIEWER_WIDTH_STORAGE_KEY) ?? Number.NaN);
    return Number.isFinite(saved) && saved > 0 ? saved : null;
  } catch {
    return null;
  }
}

export const useLayoutStore = create<LayoutState>()(() => ({
  wanted: readSavedLayout(browserStorage()),
  viewerWidth: readSavedViewerWidth(browserStorage()),
  overlay: null,
  width: typeof window === 'undefined' ? 1280 : window.innerWidth,
}));

const get = useLayoutStore.getState;
const set = useLayoutStore.setState;

function remember(wanted: PanelPreferences): void {
  set({ wanted });
  try {
    browserStorage()?.setItem(LAYOUT_STORAGE_KEY, JSON.stringify(wanted));
  } catch {
    // A full or disabled storage only costs remembering the toggles.
  }
}

export const layoutActions = {
  /**
   * The toggle button and its shortcut: hides a visible panel; shows a hidden one docked if it
   * fits beside the chat, otherwise over it.
   */
  toggle: (panel: SidePanel, viewerOpen: boolean): void => {
    const { wanted, overlay, width } = get();
    if (overlay === panel) {
      set({ overlay: null });
      return;
    }
    const plan = planLayout(width, wanted, viewerOpen);
    if (plan[panel] === 'docked') remember({ ...wanted, [panel]: false });
    else if (canDock(width, wanted, viewerOpen, panel)) remember({ ...wanted, [panel]: true });
    else set({ overlay: panel });
  },
  /** Makes sure a panel is on screen (docked if it fits, floating otherwise), e.g. to show a form in it. */
  reveal: (panel: SidePanel, viewerOpen: boolean): void => {
    const { wanted, overlay, width } = get();
    if (overlay === panel || planLayout(width, wanted, viewerOpen)[panel] === 'docked') return;
    layoutActions.toggle(panel, viewerOpen);
  },
  closeOverlay: (): void => {
    if (get().overlay !== null) set({ overlay: null });
  },
  setWidth: (width: number): void => {
    set({ width });
  },
  /** The resize handle: follows a drag as it goes; `remember` when the drag ends or on a key press. */
  setViewerWidth: (viewerWidth: number, remember: boolean): void => {
    set({ viewerWidth });
    if (!remember) return;
    try {
      browserStorage()?.setItem(VIEWER_WIDTH_STORAGE_KEY, String(viewerWidth));
    } catch {
      // A full or disabled storage only costs remembering the width.
    }
  },
};

/** Follows the window's width (panels dock or collapse with it). */
export function useWindowWidth(): void {
  useEffect(() => {
    const onResize = () => layoutActions.setWidth(window.innerWidth);
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
}

/** The layout for the current width, toggles and file viewer. */
export function useLayoutPlan(viewerOpen: boolean): LayoutPlan {
  const width = useLayoutStore((state) => state.width);
  const wanted = useLayoutStore((state) => state.wanted);
  return planLayout(width, wanted, viewerOpen);
}

/** The docked file pane's width now (the user's, clamped to the window) and its limits. */
export function useViewerWidth(plan: LayoutPlan): {
  readonly width: number;
  readonly min: number;
  readonly max: number;
} {
  const width = useLayoutStore((state) => state.width);
  const wanted = useLayoutStore((state) => state.viewerWidth);
  return { width: viewerWidthFor(wanted, width, plan), ...viewerWidthRange(width, plan) };
}
