/**
 * Which side panels sit beside the chat and which must float over it, for a window width. Pure, so
 * the rule "the chat is never squeezed" is tested without a browser.
 *
 * Panels are docked in priority order — the file the user just opened, then the workspace tree, then
 * the conversation list — for as long as the chat keeps its minimum width. A panel that does not fit
 * is collapsed; its toggle then shows it as an overlay instead of taking width from the chat.
 */
export const layoutWidths = {
  /** Narrowest chat column: a readable line of text plus the composer's buttons. */
  chatMin: 420,
  workspace: 260,
  conversations: 220,
  /** The file viewer shares the leftover width with the chat but never gets less than this. */
  viewerMin: 360,
} as const;

export type SidePanel = 'workspace' | 'conversations';

export interface PanelPreferences {
  /** What the user asked for with the toggles (remembered); the window width may still overrule it. */
  readonly workspace: boolean;
  readonly conversations: boolean;
}

export interface LayoutPlan {
  readonly workspace: 'docked' | 'collapsed';
  readonly conversations: 'docked' | 'collapsed';
  readonly viewer: 'docked' | 'overlay' | 'none';
}

export function planLayout(width: number, wanted: PanelPreferences, viewerOpen: boolean): LayoutPlan {
  let free = width - layoutWidths.chatMin;
  let viewer: LayoutPlan['viewer'] = 'none';
  if (viewerOpen) {
    viewer = free >= layoutWidths.viewerMin ? 'docked' : 'overlay';
    if (viewer === 'docked') free -= layoutWidths.viewerMin;
  }
  const dock = (panel: SidePanel): 'docked' | 'collapsed' => {
    if (!wanted[panel] || free < layoutWidths[panel]) return 'collapsed';
    free -= layoutWidths[panel];
    return 'docked';
  };
  const workspace = dock('workspace');
  const conversations = dock('conversations');
  return { workspace, conversations, viewer };
}

/** Would this panel be docked if the user wanted it? (Otherwise its toggle opens an overlay.) */
export function canDock(width: number, wanted: PanelPreferences, viewerOpen: boolean, panel: SidePanel): boolean {
  return planLayout(width, { ...wanted, [panel]: true }, viewerOpen)[panel] === 'docked';
}

/** Where a side panel is drawn: beside the chat, floating over it (narrow window), or not at all. */
export type PanelPlacement = 'docked' | 'collapsed' | 'overlay';

/** The docked file pane's width limits: at least viewerMin, at most what leaves the chat its minimum. */
export function viewerWidthRange(width: number, plan: LayoutPlan): { readonly min: number; readonly max: number } {
  const taken =
    layoutWidths.chatMin +
    (plan.workspace === 'docked' ? layoutWidths.workspace : 0) +
    (plan.conversations === 'docked' ? layoutWidths.conversations : 0);
  return { min: layoutWidths.viewerMin, max: Math.max(layoutWidths.viewerMin, width - taken) };
}

/**
 * The docked file pane's width: the one the user dragged or keyed to (remembered), else half of
 * what the docked tree leaves; always inside viewerWidthRange, so a narrower window shrinks it
 * before it could squeeze the chat.
 */
export function viewerWidthFor(wanted: number | null, width: number, plan: LayoutPlan): number {
  const { min, max } = viewerWidthRange(width, plan);
  const preferred = wanted ?? Math.round((width - (plan.workspace === 'docked' ? layoutWidths.workspace : 0)) / 2);
  return Math.min(max, Math.max(min, Math.round(preferred)));
}
