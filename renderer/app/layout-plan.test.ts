import { describe, expect, it } from 'vitest';
import { canDock, layoutWidths, planLayout } from './layout-plan';

const both = { workspace: true, conversations: true };

/** The chat's share when everything docked takes its fixed width (the viewer at its minimum). */
function chatWidth(width: number, plan: ReturnType<typeof planLayout>): number {
  return (
    width -
    (plan.workspace === 'docked' ? layoutWidths.workspace : 0) -
    (plan.conversations === 'docked' ? layoutWidths.conversations : 0) -
    (plan.viewer === 'docked' ? layoutWidths.viewerMin : 0)
  );
}

describe('planLayout', () => {
  it('docks everything at 1280 px, with a file open, and the chat keeps its minimum', () => {
    const plan = planLayout(1280, both, true);
    expect(plan).toEqual({ workspace: 'docked', conversations: 'docked', viewer: 'docked' });
    expect(chatWidth(1280, plan)).toBeGreaterThanOrEqual(layoutWidths.chatMin);
  });

  it('at 760 px floats the file over the chat and collapses what does not fit', () => {
    const plan = planLayout(760, both, true);
    expect(plan.viewer).toBe('overlay');
    expect(plan.conversations).toBe('collapsed');
    expect(chatWidth(760, plan)).toBeGreaterThanOrEqual(layoutWidths.chatMin);
  });

  it('never leaves the chat below its minimum, at any width from 420 to 2000 px', () => {
    for (let width = 420; width <= 2000; width += 10) {
      for (const viewerOpen of [false, true]) {
        expect(chatWidth(width, planLayout(width, both, viewerOpen)), `${width} ${viewerOpen}`).toBeGreaterThanOrEqual(
          layoutWidths.chatMin,
        );
      }
    }
  });

  it('keeps a panel the user hid hidden, even with room to spare', () => {
    expect(planLayout(1920, { workspace: false, conversations: true }, false).workspace).toBe('collapsed');
    expect(canDock(1920, { workspace: false, conversations: true }, false, 'workspace')).toBe(true);
    expect(canDock(760, both, true, 'conversations')).toBe(false);
  });
});
