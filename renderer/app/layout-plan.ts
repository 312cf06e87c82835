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
